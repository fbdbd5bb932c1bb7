import { describe, expect, it } from 'vitest';
import { KEEP_CARDS_KEY } from '../../lib/device-data';
import { KEEP_CARDS_FLAG_KEY } from './keep-cards-flag';

describe('keep-cards flag', () => {
  it('reads the key device-data writes', () => {
    expect(KEEP_CARDS_FLAG_KEY).toBe(KEEP_CARDS_KEY);
  });
});
