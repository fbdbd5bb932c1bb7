import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AdminPopup, POPUP_INTERNAL_TARGETS, PopupFormSchema } from '#shared/schemas/popups';
import { chooseSortField, toggleSortOrder } from '../../lib/list-state';
import {
  audienceSummary,
  destinationName,
  destinationOptions,
  destinationSentence,
  emptyPopupForm,
  formatInZone,
  occurrenceLine,
  parseOptionalIntegerInput,
  previewPopup,
  quietHoursFromInputs,
  reachText,
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

  it('a new popup: Take Vital Scan to the default site, every employer, programme limits, created inactive', () => {
    const filled = { ...emptyPopupForm(), title: 'T', message: 'M', startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-01-02T00:00:00.000Z' };
    const parsed = PopupFormSchema.parse(filled);
    expect(parsed).toMatchObject({
      actionLabel: 'Take Vital Scan',
      actionTarget: undefined,
      audience: { companyIds: [], enrolledOnly: false, withFamilyOnly: false },
      dailyCap: null,
      quietHours: null,
      isActive: false,
    });
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
      actionLabel: 'Book your flu shot',
      actionTarget: '/health/get-care/prescriptions',
      audience: { companyIds: ['0b7c4f5e-9a35-4b8e-8f2a-1c2d3e4f5a6b'], enrolledOnly: true, withFamilyOnly: false },
      dailyCap: 3,
      quietHours: { start: '21:00', end: '07:30' },
      status: 'live' as const,
      nextOccurrenceAt: '2026-03-15T17:00:00.000Z',
      createdAt: '2026-02-01T00:00:00.000Z',
      updatedAt: '2026-02-01T00:00:00.000Z',
    } satisfies AdminPopup;
    expect(PopupFormSchema.parse(popupToForm(popup))).toEqual(popupToForm(popup));
    // The form holds copies: editing it never changes the cached popup.
    expect(popupToForm(popup).audience?.companyIds).not.toBe(popup.audience.companyIds);
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

  it.each([
    ['', null],
    ['  ', null],
    [null, null],
    ['3', 3],
    ['0', 0],
    ['2.5', Number.NaN],
  ])('the daily limit reads %j as %s (empty: the programme setting)', (input, expected) => {
    expect(parseOptionalIntegerInput(input)).toBe(expected);
  });

  it('the daily limit and quiet hours go through the shared schema as the form sends them', () => {
    const base = { ...emptyPopupForm(), title: 'T', message: 'M', startAt: '2030-01-01T00:00:00.000Z', endAt: '2030-01-02T00:00:00.000Z' };
    expect(PopupFormSchema.safeParse({ ...base, dailyCap: parseOptionalIntegerInput('21') }).success).toBe(false);
    expect(PopupFormSchema.safeParse({ ...base, dailyCap: parseOptionalIntegerInput('') }).success).toBe(true);
    expect(quietHoursFromInputs('', '')).toBeNull();
    expect(quietHoursFromInputs('21:00', '07:00')).toEqual({ start: '21:00', end: '07:00' });
    // One of the two left empty is an error on the empty one, not a silent "off".
    const half = PopupFormSchema.safeParse({ ...base, quietHours: quietHoursFromInputs('21:00', '') });
    expect(half.success).toBe(false);
    expect(half.error?.issues[0]?.path).toEqual(['quietHours', 'end']);
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
    expect(footerText(1, { search: '', status: '' })).toBe('Showing 1 popup');
    expect(footerText(3, { search: ' flu ', status: 'active' })).toBe('Showing 3 popups matching "flu" (Active)');
    expect(footerText(0, { search: '', status: 'inactive' })).toBe('Showing 0 popups (Inactive)');
  });
});

describe('destinations', () => {
  it('every app screen a popup may lead to has a readable name', () => {
    for (const path of POPUP_INTERNAL_TARGETS) expect(destinationName(path)).not.toBe(path);
    expect(new Set(POPUP_INTERNAL_TARGETS.map(destinationName)).size).toBe(POPUP_INTERNAL_TARGETS.length);
  });

  it('the select lists the screens, then the allowed sites with the vital-scan one marked default', () => {
    const vital = 'https://vitalscan.example.test/start';
    const o = destinationOptions([vital, 'https://wellness.example.test/daily'], vital, undefined);
    expect(o.screens.map((s) => s.value)).toEqual([...POPUP_INTERNAL_TARGETS]);
    expect(o.sites).toEqual([
      { value: vital, label: `${vital} (default)` },
      { value: 'https://wellness.example.test/daily', label: 'https://wellness.example.test/daily' },
    ]);
  });

  it('an address no longer allowed stays listed for the popup that has it', () => {
    const o = destinationOptions([], 'https://v.example.test/', 'https://old.example.test/x');
    expect(o.sites.map((s) => s.value)).toEqual(['https://v.example.test/', 'https://old.example.test/x']);
    expect(destinationOptions([], '', '/health').sites).toEqual([]);
  });

  it('the preview says where the button goes', () => {
    expect(destinationSentence('/health/get-care/prescriptions')).toBe('The button opens Get Care: Prescriptions in the app.');
    expect(destinationSentence('https://wellness.example.test/daily')).toBe('The button opens wellness.example.test in a new tab.');
    expect(destinationSentence('')).toBe('');
  });
});

describe('preview', () => {
  it('shows the first show of what the form holds, with placeholders for empty texts', () => {
    const p = previewPopup({ title: '  ', message: 'Hello', actionLabel: '', actionTarget: undefined, maxSnoozes: 2, theme: 'green' });
    expect(p).toMatchObject({ title: 'Your title', message: 'Hello', actionLabel: 'Take Vital Scan', actionTarget: '', theme: 'green', canSnooze: true, snoozeCount: 0, isLastReminder: false });
  });

  it('no snoozes allowed (or an unreadable number) previews the last reminder', () => {
    expect(previewPopup({ maxSnoozes: 0, theme: 'white' })).toMatchObject({ canSnooze: false, isLastReminder: true });
    expect(previewPopup({ maxSnoozes: Number.NaN, theme: 'white' })).toMatchObject({ canSnooze: false, isLastReminder: true });
  });
});

describe('list card', () => {
  it('summarises the audience', () => {
    expect(audienceSummary({ companyIds: [], enrolledOnly: false, withFamilyOnly: false })).toBe('All employers');
    expect(audienceSummary({ companyIds: ['a'], enrolledOnly: true, withFamilyOnly: false })).toBe('1 employer, enrolled members only');
    expect(audienceSummary({ companyIds: ['a', 'b'], enrolledOnly: true, withFamilyOnly: true })).toBe('2 employers, enrolled members only, members with family only');
  });

  it('reach reads as a sentence, singular for one', () => {
    expect(reachText(0)).toBe('Reaches about 0 members');
    expect(reachText(1)).toBe('Reaches about 1 member');
    expect(reachText(1234567)).toBe('Reaches about 1,234,567 members');
  });

  it('the next occurrence is told in the popup\'s own time zone, across DST', () => {
    // 17:00 UTC is 09:00 in Los Angeles in January (PST) and 10:00 in July (PDT).
    expect(formatInZone('2031-01-15T17:00:00.000Z', 'America/Los_Angeles')).toMatch(/^Jan 15, 2031, 9:00\sAM PST$/);
    expect(formatInZone('2031-07-15T17:00:00.000Z', 'America/Los_Angeles')).toMatch(/^Jul 15, 2031, 10:00\sAM PDT$/);
    expect(formatInZone('2031-01-15T17:00:00.000Z', 'Asia/Kolkata')).toMatch(/^Jan 15, 2031, 10:30\sPM GMT\+5:30$/);
    expect(formatInZone('2031-01-15T17:00:00.000Z', 'Not/AZone')).toMatch(/^Jan 15, 2031, 5:00\sPM UTC$/);
  });

  it('says which occurrence: the current one when live, the next otherwise, none when over', () => {
    const at = '2031-01-15T17:00:00.000Z';
    expect(occurrenceLine({ status: 'live', nextOccurrenceAt: at, timezone: 'UTC' })).toEqual({ label: 'Current occurrence', value: formatInZone(at, 'UTC') });
    expect(occurrenceLine({ status: 'scheduled', nextOccurrenceAt: at, timezone: 'UTC' })?.label).toBe('Next occurrence');
    expect(occurrenceLine({ status: 'inactive', nextOccurrenceAt: null, timezone: 'UTC' })).toEqual({ label: 'Next occurrence', value: 'None left' });
    expect(occurrenceLine({ status: 'ended', nextOccurrenceAt: null, timezone: 'UTC' })).toBeNull();
  });
});
