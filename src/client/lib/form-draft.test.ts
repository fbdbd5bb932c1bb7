import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearDraft, readDraft, writeDraft } from './form-draft';
import { clearAllDrafts } from './form-draft-storage';

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
  };
}

const fields = ['firstName', 'lastName', 'dob', 'relationship'] as const;
type Values = Record<(typeof fields)[number], string>;

describe('form drafts', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage();
    vi.stubGlobal('sessionStorage', storage);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps a draft per user and form, and gives back only the known string fields', () => {
    writeDraft('u1', 'family-add', { firstName: 'Dana', lastName: 'Okafor', dob: '', relationship: '' });
    expect(readDraft<Values>('u1', 'family-add', fields)).toEqual({ firstName: 'Dana', lastName: 'Okafor', dob: '', relationship: '' });
    expect(readDraft<Values>('u2', 'family-add', fields)).toBeUndefined();
    expect(readDraft<Values>('u1', 'family-edit.x', fields)).toBeUndefined();
    storage.setItem('wellhaven.draft.u1.family-add', JSON.stringify({ firstName: 'Dana', role: 'admin', dob: 5 }));
    expect(readDraft<Values>('u1', 'family-add', fields)).toEqual({ firstName: 'Dana' });
  });

  it('an emptied form leaves no draft; clear removes one; clearAll removes every draft and nothing else', () => {
    writeDraft('u1', 'family-add', { firstName: 'Dana', lastName: '' });
    writeDraft('u1', 'family-add', { firstName: '', lastName: '' });
    expect(storage.length).toBe(0);
    writeDraft('u1', 'a', { x: '1' });
    writeDraft('u1', 'b', { x: '2' });
    clearDraft('u1', 'a');
    expect(readDraft('u1', 'a', ['x'])).toBeUndefined();
    expect(readDraft('u1', 'b', ['x'])).toEqual({ x: '2' });
    storage.setItem('other', 'kept');
    writeDraft('u2', 'c', { x: '3' });
    clearAllDrafts();
    expect(storage.length).toBe(1);
    expect(storage.getItem('other')).toBe('kept');
  });

  it('never throws when storage is refused or holds garbage', () => {
    storage.setItem('wellhaven.draft.u1.f', '{not json');
    expect(readDraft('u1', 'f', ['x'])).toBeUndefined();
    vi.stubGlobal('sessionStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
      get length(): number {
        throw new Error('SecurityError');
      },
    });
    expect(() => writeDraft('u1', 'f', { x: '1' })).not.toThrow();
    expect(readDraft('u1', 'f', ['x'])).toBeUndefined();
    expect(() => clearDraft('u1', 'f')).not.toThrow();
    expect(() => clearAllDrafts()).not.toThrow();
  });
});
