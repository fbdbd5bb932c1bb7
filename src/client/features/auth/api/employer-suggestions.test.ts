import { afterEach, describe, expect, it, vi } from 'vitest';
import { employerSuggestionsQueryOptions } from './employer-suggestions';
import { queryKeys } from '../../../lib/query-keys';

describe('employerSuggestionsQueryOptions', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keys the answer by the trimmed text, from the key factory, and asks nothing under 3 characters', () => {
    const options = employerSuggestionsQueryOptions('  acme ');
    expect(options.queryKey).toEqual(queryKeys.member.employerSuggestions('acme'));
    expect(options.enabled).toBe(true);
    expect(employerSuggestionsQueryOptions(' ac ').enabled).toBe(false);
  });

  it('fetches with its own query function (no URL-as-key default), the text encoded', async () => {
    const fetched: string[] = [];
    vi.stubGlobal('localStorage', { getItem: () => null });
    vi.stubGlobal('fetch', async (url: string) => {
      fetched.push(url);
      return new Response(JSON.stringify({ employers: [{ name: 'Smith & Sons' }] }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const options = employerSuggestionsQueryOptions(' smith & s?n ');
    expect(options.queryFn).toBeTypeOf('function');
    const data = await (options.queryFn as () => Promise<unknown>)();
    expect(fetched).toEqual(['/api/employers/suggest?q=smith%20%26%20s%3Fn']);
    expect(data).toEqual({ employers: [{ name: 'Smith & Sons' }] });
  });
});
