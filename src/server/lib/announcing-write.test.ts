import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '#db/client';
import { type CacheChange, announcingStatement, announcingWrite, onAnnouncedChange, setChangePublisher } from './notify';

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
});

describe('announcingStatement', () => {
  /** A handle whose publisher records what it published, and can give notices (the PostgreSQL channel) or not (Redis). */
  function published(withNotice: boolean) {
    const { db, heard } = handle();
    const sent: CacheChange[] = [];
    setChangePublisher(db, {
      publish: async (change) => void sent.push(change),
      ...(withNotice ? { notice: (change: CacheChange) => `notice:${JSON.stringify(change)}` } : {}),
    });
    return { db, heard, sent };
  }

  it('hands the write its notice on the PostgreSQL channel, and publishes nothing more', async () => {
    const { db, heard, sent } = published(true);
    const given: (string | null)[] = [];
    expect(await announcingStatement(db, { family: MEMBER }, async (notice) => (given.push(notice), 'row'))).toBe('row');
    expect(given).toEqual([`notice:${JSON.stringify({ family: MEMBER })}`]);
    expect(heard).toEqual([{ family: MEMBER }]);
    expect(sent).toEqual([]);
  });

  it('hands the write no notice on another channel, and publishes after it', async () => {
    const { db, heard, sent } = published(false);
    const given: (string | null)[] = [];
    await announcingStatement(db, { family: MEMBER }, async (notice) => void given.push(notice));
    expect(given).toEqual([null]);
    expect(heard).toEqual([{ family: MEMBER }]);
    expect(sent).toEqual([{ family: MEMBER }]);
  });

  it('publishes a write that threw, notice or not (it may not have carried it), and rethrows', async () => {
    const { db, heard, sent } = published(true);
    const failure = new Error('statement refused');
    await expect(announcingStatement(db, { family: MEMBER }, () => Promise.reject(failure))).rejects.toBe(failure);
    expect(heard).toEqual([{ family: MEMBER }]);
    expect(sent).toEqual([{ family: MEMBER }]);
  });
});
