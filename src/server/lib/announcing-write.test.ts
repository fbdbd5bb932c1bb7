import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '#db/client';
import { type CacheChange, announcingWrite, onAnnouncedChange } from './notify';

const MEMBER = '6f1d7a52-3c1e-4a8e-9d3b-2b7e4f0c9a11';

/** A database handle of its own (announcements are keyed by handle), and what was announced through it. */
function handle() {
  const db = {} as DbOrTx;
  const heard: CacheChange[] = [];
  onAnnouncedChange(db, (change) => heard.push(change));
  return { db, heard };
}

describe('announcingWrite', () => {
  it('announces after a write that changed something, and hands back its result', async () => {
    const { db, heard } = handle();
    const order: string[] = [];
    onAnnouncedChange(db, () => order.push('announced'));
    const result = await announcingWrite(db, { family: MEMBER }, async () => (order.push('written'), 7));
    expect(result).toBe(7);
    expect(order).toEqual(['written', 'announced']);
    expect(heard).toEqual([{ family: MEMBER }]);
  });

  it('announces nothing for a write that changed no row', async () => {
    const { db, heard } = handle();
    expect(await announcingWrite(db, { popupStates: MEMBER }, async () => false, (wrote) => wrote)).toBe(false);
    expect(heard).toEqual([]);
  });

  it('announces a write that threw (it may have committed), and rethrows', async () => {
    const { db, heard } = handle();
    const failure = new Error('connection lost after COMMIT');
    await expect(announcingWrite(db, { popupStates: MEMBER }, () => Promise.reject(failure), () => false)).rejects.toBe(failure);
    expect(heard).toEqual([{ popupStates: MEMBER }]);
  });

  it('announces through `through`, with the write’s result, once', async () => {
    const { db, heard } = handle();
    const seen: number[] = [];
    const result = await announcingWrite(db, { family: MEMBER }, async () => 7, undefined, async (written, announce) => {
      seen.push(written);
      await announce();
    });
    expect(result).toBe(7);
    expect(seen).toEqual([7]);
    expect(heard).toEqual([{ family: MEMBER }]);
  });

  it('announces all the same when `through` fails, or returns, before announcing', async () => {
    const failing = handle();
    const failure = new Error('update threw');
    await expect(announcingWrite(failing.db, { family: MEMBER }, async () => 7, undefined, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(failing.heard).toEqual([{ family: MEMBER }]);
    const forgetful = handle();
    expect(await announcingWrite(forgetful.db, { family: MEMBER }, async () => 7, undefined, async () => {})).toBe(7);
    expect(forgetful.heard).toEqual([{ family: MEMBER }]);
  });
});
