import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../errors';
import { AdminPopupListQuerySchema, isIanaTimeZone, NextPopupQuerySchema, PopupFormSchema } from './popups';

const valid = {
  title: 'Take your Vital Scan',
  message: 'It takes 30 seconds.',
  target: 'home',
  startAt: '2026-03-01T09:00:00.000Z',
  endAt: '2026-04-01T09:00:00.000Z',
};

const errorsOf = (input: unknown) => {
  const r = PopupFormSchema.safeParse(input);
  return r.success ? {} : fieldErrors(r.error.issues);
};

describe('PopupFormSchema', () => {
  it('applies the admin form defaults', () => {
    expect(PopupFormSchema.parse(valid)).toEqual({
      ...valid,
      recurrence: 'NONE',
      interval: 1,
      timezone: 'UTC',
      theme: 'purple',
      maxSnoozes: 2,
      priority: 5,
      isActive: false,
      actionLabel: 'Take Vital Scan',
      audience: { companyIds: [], enrolledOnly: false, withFamilyOnly: false },
      dailyCap: null,
      quietHours: null,
    });
  });

  it.each([
    ['title', { title: '' }, 'Title is required'],
    ['title', { title: '   ' }, 'Title is required'],
    ['title', { title: 'x'.repeat(101) }, 'Title must be 100 characters or less'],
    ['message', { message: '' }, 'Message is required'],
    ['message', { message: 'x'.repeat(501) }, 'Message must be 500 characters or less'],
    ['target', { target: 'store' }, 'Target page is required'],
    ['target', { target: undefined }, 'Target page is required'],
    ['startAt', { startAt: '' }, 'Start date is required'],
    ['startAt', { startAt: 'yesterday' }, 'Start date is required'],
    ['startAt', { startAt: '2026-03-01T09:00' }, 'Start date is required'],
    ['endAt', { endAt: '' }, 'End date is required'],
    ['endAt', { endAt: '2026-03-01T09:00:00.000Z' }, 'End date must be after start date'],
    ['endAt', { endAt: '2026-02-01T09:00:00.000Z' }, 'End date must be after start date'],
    ['recurrence', { recurrence: 'YEARLY' }, 'Recurrence must be NONE, HOURLY, DAILY or WEEKLY'],
    ['interval', { interval: 0 }, 'Interval must be a whole number from 1 to 24'],
    ['interval', { interval: 25 }, 'Interval must be a whole number from 1 to 24'],
    ['interval', { interval: 1.5 }, 'Interval must be a whole number from 1 to 24'],
    ['interval', { interval: '3' }, 'Interval must be a whole number from 1 to 24'],
    ['timezone', { timezone: 'Mars/Olympus_Mons' }, 'Timezone must be a valid IANA time zone (e.g. America/Los_Angeles)'],
    ['timezone', { timezone: '+05:00' }, 'Timezone must be a valid IANA time zone (e.g. America/Los_Angeles)'],
    ['timezone', { timezone: '' }, 'Timezone is required'],
    ['theme', { theme: 'red' }, 'Theme must be green, purple or white'],
    ['maxSnoozes', { maxSnoozes: -1 }, 'Max snoozes must be a whole number from 0 to 10'],
    ['maxSnoozes', { maxSnoozes: 11 }, 'Max snoozes must be a whole number from 0 to 10'],
    ['priority', { priority: 0 }, 'Priority must be a whole number from 1 to 10'],
    ['priority', { priority: 11 }, 'Priority must be a whole number from 1 to 10'],
    ['isActive', { isActive: 'yes' }, 'Active must be true or false'],
  ])('refuses a bad %s: %j', (field, override, message) => {
    expect(errorsOf({ ...valid, ...override })[field]).toBe(message);
  });

  it('accepts the limits and an explicit offset', () => {
    const r = PopupFormSchema.safeParse({
      ...valid,
      title: 'x'.repeat(100),
      message: 'y'.repeat(500),
      startAt: '2026-03-01T09:00:00-08:00',
      interval: 24,
      maxSnoozes: 0,
      priority: 10,
      timezone: 'Europe/London',
    });
    expect(r.success).toBe(true);
  });
});

describe('isIanaTimeZone', () => {
  it.each(['UTC', 'America/Los_Angeles', 'Europe/London', 'Asia/Kathmandu', 'Etc/GMT+5'])('accepts %s', (z) => expect(isIanaTimeZone(z)).toBe(true));
  it.each(['', 'Mars/Olympus_Mons', '+05:00', 'America/Los Angeles', 'x'.repeat(65), '../etc/passwd'])('refuses %j', (z) =>
    expect(isIanaTimeZone(z)).toBe(false),
  );
});

describe('query schemas', () => {
  it('admin list: empty values mean not set; defaults are priority descending', () => {
    expect(AdminPopupListQuerySchema.parse({ search: '', status: '' })).toEqual({ sortBy: 'priority', sortOrder: 'desc' });
    expect(AdminPopupListQuerySchema.safeParse({ sortBy: 'endAt' }).success).toBe(false);
    expect(AdminPopupListQuerySchema.safeParse({ status: 'archived' }).success).toBe(false);
  });

  it('next popup: login on home by default, other pages by name', () => {
    expect(NextPopupQuerySchema.parse({})).toEqual({ context: 'login', route: 'home' });
    expect(NextPopupQuerySchema.parse({ route: 'wealth' }).route).toBe('wealth');
    expect(NextPopupQuerySchema.safeParse({ route: 'admin' }).success).toBe(false);
  });
});

describe('end after start', () => {
  it('is reported together with other field problems', () => {
    const errors = errorsOf({ ...valid, title: '', startAt: '2026-05-02T10:00:00.000Z', endAt: '2026-05-01T10:00:00.000Z' });
    expect(errors).toMatchObject({ title: 'Title is required', endAt: 'End date must be after start date' });
  });

  it('is not reported when a date is itself missing or malformed', () => {
    expect(errorsOf({ ...valid, startAt: '' })).toEqual({ startAt: 'Start date is required' });
    expect(errorsOf({ ...valid, endAt: 'soon' })).toEqual({ endAt: 'End date is required' });
  });
});
