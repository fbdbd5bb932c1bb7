import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PopupFormSchema } from '#shared/schemas/popups';
import { chooseSortField, toggleSortOrder } from '../../lib/list-state';
import {
  emptyPopupForm,
  footerText,
  formatActivePeriod,
  fromLocalInputValue,
  initialListState,
  listQuery,
  parseIntegerInput,
  popupToForm,
  readPopupListState,
  toLocalInputValue,
  writePopupListState,
} from './admin-popup-view';

describe('date-time inputs', () => {
  it('shows an instant as a local date-time trimmed to minutes, and reads it back', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }), (ms) => {
        const minute = Math.floor(ms / 60_000) * 60_000;
        const local = toLocalInputValue(new Date(ms).toISOString());
        expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
        // Round trip lands on the same minute except inside a DST overlap, where it takes one of the two.
        const back = Date.parse(fromLocalInputValue(local));
        expect(Math.abs(back - minute) % (30 * 60_000)).toBe(0);
      }),
    );
  });

  it('empty or invalid values become empty', () => {
    expect(toLocalInputValue('')).toBe('');
    expect(toLocalInputValue('nonsense')).toBe('');
    expect(fromLocalInputValue('')).toBe('');
    expect(fromLocalInputValue('2026-13-45T99:99')).toBe('');
  });

  it('formats the active period with short month, day, year, hour and minute', () => {
    const text = formatActivePeriod({ startAt: '2026-03-01T17:05:00.000Z', endAt: '2026-04-01T17:05:00.000Z' });
    expect(text).toMatch(/^(Feb|Mar) \d{1,2}, 2026, \d{1,2}:\d{2}\s?[AP]M - (Mar|Apr) \d{1,2}, 2026, \d{1,2}:\d{2}\s?[AP]M$/);
  });
});

describe('form values', () => {
  it('the create form starts at the spec defaults, which the shared schema reports as missing title, message and dates', () => {
    const r = PopupFormSchema.safeParse(emptyPopupForm());
    expect(r.success).toBe(false);
    expect(emptyPopupForm()).toMatchObject({ recurrence: 'NONE', interval: 1, timezone: 'UTC', theme: 'purple', maxSnoozes: 2, priority: 5, isActive: false });
  });

  it('an existing popup prefills a form the schema accepts unchanged', () => {
    const popup = {
      id: '6f1c2a40-7f3a-4c55-9d1e-2b8f0a1c3d4e',
      title: 'Flu shot',
      message: 'Book it today.',
      target: 'health' as const,
      startAt: '2026-03-01T17:00:00.000Z',
      endAt: '2026-04-01T17:00:00.000Z',
      recurrence: 'WEEKLY' as const,
      interval: 2,
      timezone: 'Europe/London',
      theme: 'green' as const,
      maxSnoozes: 3,
      priority: 8,
      isActive: true,
      createdAt: '2026-02-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
    };
    expect(PopupFormSchema.parse(popupToForm(popup))).toEqual(popupToForm(popup));
  });

  it.each([
    ['7', 7],
    [' 12 ', 12],
    ['', Number.NaN],
    ['3.5', Number.NaN],
    ['abc', Number.NaN],
    [4, 4],
  ])('parses %j as %s', (input, expected) => {
    expect(parseIntegerInput(input)).toBe(expected);
  });
});

describe('list state', () => {
  it('adds query parameters only for a filter or a non-default sort', () => {
    expect(listQuery(initialListState)).toEqual({});
    expect(listQuery({ ...initialListState, search: '  flu ', status: 'active' })).toEqual({ search: 'flu', status: 'active' });
    expect(listQuery({ ...initialListState, sortOrder: 'asc' })).toEqual({ sortBy: 'priority', sortOrder: 'asc' });
  });

  it('choosing another field sorts ascending; the toggle flips the order', () => {
    const byTitle = chooseSortField(initialListState, 'title');
    expect(byTitle).toMatchObject({ sortBy: 'title', sortOrder: 'asc' });
    expect(chooseSortField(byTitle, 'title')).toBe(byTitle);
    expect(toggleSortOrder(byTitle).sortOrder).toBe('desc');
    expect(toggleSortOrder(initialListState).sortOrder).toBe('asc');
  });

  it('lives in the URL query: defaults left out, read back as written, junk falls back to the default', () => {
    expect(writePopupListState(initialListState).toString()).toBe('');
    expect(readPopupListState(new URLSearchParams())).toEqual(initialListState);
    const state = { search: 'flu shot ', status: 'inactive', sortBy: 'title', sortOrder: 'asc' } as const;
    const params = writePopupListState(state);
    expect(params.toString()).toBe('search=flu+shot+&status=inactive&sortBy=title&sortOrder=asc');
    expect(readPopupListState(params)).toEqual(state);
    expect(readPopupListState(new URLSearchParams('status=paused&sortBy=id&sortOrder=up'))).toEqual(initialListState);
  });

  it('footer: count, then the search text and the status filter', () => {
    expect(footerText(1, { search: '', status: '' })).toBe('Showing 1 popup(s)');
    expect(footerText(3, { search: ' flu ', status: 'active' })).toBe('Showing 3 popup(s) matching "flu" (Active)');
    expect(footerText(0, { search: '', status: 'inactive' })).toBe('Showing 0 popup(s) (Inactive)');
  });
});
