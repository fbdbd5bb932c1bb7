import { z } from 'zod';
import { messages } from '../messages/index';
import { paths } from '../paths';
import { emptyAsUndefined, SORT_ORDERS } from './common';
import { pathId } from './ids';

export type { SortOrder } from './common';

const v = messages.popups.validation;

export const POPUP_TARGETS = ['home', 'health', 'wealth', 'profile'] as const;
export const PopupTargetSchema = z.enum(POPUP_TARGETS, { error: v.targetRequired });
export type PopupTarget = z.infer<typeof PopupTargetSchema>;

export const POPUP_RECURRENCES = ['NONE', 'HOURLY', 'DAILY', 'WEEKLY'] as const;
export const PopupRecurrenceSchema = z.enum(POPUP_RECURRENCES, { error: v.recurrenceInvalid });
export type PopupRecurrence = z.infer<typeof PopupRecurrenceSchema>;

export const POPUP_THEMES = ['green', 'purple', 'white'] as const;
export const PopupThemeSchema = z.enum(POPUP_THEMES, { error: v.themeInvalid });
export type PopupTheme = z.infer<typeof PopupThemeSchema>;

/**
 * A real IANA zone name this runtime knows. Bare offsets such as "+05:00" are refused,
 * though Intl accepts them, because recurrence must follow a zone's DST rules.
 */
export function isIanaTimeZone(name: string): boolean {
  // Segment by segment: one flat pattern per part, no nested quantifier to backtrack through.
  const parts = name.split('/');
  if (name.length > 64 || !parts.every((part, i) => (i === 0 ? /^[A-Za-z][A-Za-z0-9_+-]*$/ : /^[A-Za-z0-9_+-]+$/).test(part))) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const instantSchema = z.iso.datetime({ offset: true });
const isInstant = (value: unknown): value is string => typeof value === 'string' && instantSchema.safeParse(value.trim()).success;

/**
 * An instant with an explicit offset (the browser sends `Date.toISOString()`), in the years a
 * programme can schedule. The ISO format alone admits year 0000, which PostgreSQL has no
 * room for, and 9999 with a negative offset, which is year 10000 in UTC.
 */
const dateTime = (required: string, outOfRange: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .pipe(z.iso.datetime({ offset: true, error: required }))
    .refine((value) => {
      const year = new Date(value).getUTCFullYear();
      return year >= 2000 && year <= 2099;
    }, outOfRange);

const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

export const DEFAULT_ACTION_LABEL = 'Take Vital Scan';

/**
 * The member screens a popup's button may lead to: the app's own route table, signed-in
 * member screens only (no admin, sign-in or parameterised routes).
 */
export const POPUP_INTERNAL_TARGETS = [
  paths.home, paths.profile, paths.security, paths.addFamily, paths.health, paths.healthActivities, paths.soar,
  paths.vitalScan, paths.planOfCare, paths.getCare, paths.virtualUrgentCare, paths.virtualPrimaryCare,
  paths.inPersonCare, paths.questSelectLabs, paths.virtualTherapy, paths.careNavigator, paths.prescriptions,
  paths.wealth, paths.financialWellnessCenter, paths.financialGuidanceSystem, paths.store, paths.idCard,
  paths.information,
] as const;

/**
 * Where a popup's button goes: one of POPUP_INTERNAL_TARGETS, or an https URL. Which https
 * URLs are allowed is the server's configuration (POPUP_ACTION_URLS; the vital-scan and
 * wellness URLs by default), checked on save; this is the shape both sides check.
 */
export const PopupActionTargetSchema = z
  .string({ error: v.actionTargetInvalid })
  .trim()
  .max(2048, v.actionTargetInvalid)
  .refine((t) => (POPUP_INTERNAL_TARGETS as readonly string[]).includes(t) || /^https:\/\/[^\s]+$/.test(t), v.actionTargetInvalid);

/** Who a popup is for: these employers (empty = every employer), optionally narrowed. */
export const PopupAudienceSchema = z.object({
  companyIds: z.array(z.uuid({ error: v.audienceInvalid }), { error: v.audienceInvalid }).max(200, v.audienceTooMany).default([]),
  enrolledOnly: z.boolean({ error: v.audienceInvalid }).default(false),
  withFamilyOnly: z.boolean({ error: v.audienceInvalid }).default(false),
});
export type PopupAudience = z.output<typeof PopupAudienceSchema>;

/** "HH:MM", 24-hour, local to the member. */
const localTime = z.string({ error: v.quietHoursInvalid }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, v.quietHoursInvalid);
/** Quiet hours: no popup from `start` until `end` local time (may wrap past midnight); start ≠ end. */
export const QuietHoursSchema = z
  .object({ start: localTime, end: localTime })
  .refine((q) => q.start !== q.end, { path: ['end'], message: v.quietHoursEmpty });
export type QuietHours = z.infer<typeof QuietHoursSchema>;

/**
 * The admin popup form, validated by the browser form and by the server
 * (POST /api/admin/popups and PUT /api/admin/popups/{id}). Spec section 5, plus
 * "End date must be after start date" and a real IANA timezone.
 */
export const PopupFormSchema = z
  .object({
    title: z.string({ error: v.titleRequired }).trim().min(1, v.titleRequired).max(100, v.titleTooLong),
    message: z.string({ error: v.messageRequired }).trim().min(1, v.messageRequired).max(500, v.messageTooLong),
    target: PopupTargetSchema,
    startAt: dateTime(v.startRequired, v.startOutOfRange),
    endAt: dateTime(v.endRequired, v.endOutOfRange),
    recurrence: PopupRecurrenceSchema.default('NONE'),
    interval: wholeNumber(1, 24, v.intervalRange).default(1),
    timezone: z
      .string({ error: v.timezoneRequired })
      .trim()
      .min(1, v.timezoneRequired)
      .refine(isIanaTimeZone, v.timezoneInvalid)
      .default('UTC'),
    theme: PopupThemeSchema.default('purple'),
    maxSnoozes: wholeNumber(0, 10, v.maxSnoozesRange).default(2),
    priority: wholeNumber(1, 10, v.priorityRange).default(5),
    isActive: z.boolean({ error: v.isActiveInvalid }).default(false),
    actionLabel: z.string({ error: v.actionLabelRequired }).trim().min(1, v.actionLabelRequired).max(40, v.actionLabelTooLong).default(DEFAULT_ACTION_LABEL),
    /** Absent or empty: the vital-scan URL from configuration. */
    actionTarget: z.preprocess(emptyAsUndefined, PopupActionTargetSchema.optional()),
    audience: PopupAudienceSchema.default({ companyIds: [], enrolledOnly: false, withFamilyOnly: false }),
    /** Per popup; null or absent = the programme's setting (off unless configured). */
    dailyCap: wholeNumber(1, 20, v.dailyCapRange).nullable().default(null),
    quietHours: QuietHoursSchema.nullable().default(null),
  })
  .refine((p) => Date.parse(p.endAt) > Date.parse(p.startAt), {
    path: ['endAt'],
    message: v.endAfterStart,
    // Also when other fields are wrong, so the form shows every problem at once.
    when: ({ value }) => {
      const dates = value as { startAt?: unknown; endAt?: unknown } | undefined;
      return isInstant(dates?.startAt) && isInstant(dates?.endAt);
    },
  });
export type PopupFormInput = z.input<typeof PopupFormSchema>;
export type PopupForm = z.output<typeof PopupFormSchema>;

export const POPUP_STATUSES = ['scheduled', 'live', 'ended', 'inactive'] as const;
export type PopupStatus = (typeof POPUP_STATUSES)[number];

export const PopupIdParamsSchema = z.object({ id: pathId(messages.popups.server.notFound) });

/** The popup as the admin console sees it. */
export const AdminPopupSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  message: z.string(),
  target: PopupTargetSchema,
  startAt: z.iso.datetime({ offset: true }),
  endAt: z.iso.datetime({ offset: true }),
  recurrence: PopupRecurrenceSchema,
  interval: z.number().int(),
  timezone: z.string(),
  theme: PopupThemeSchema,
  maxSnoozes: z.number().int(),
  priority: z.number().int(),
  isActive: z.boolean(),
  actionLabel: z.string(),
  /** Resolved: the vital-scan URL when the popup has none of its own. */
  actionTarget: z.string(),
  audience: z.object({ companyIds: z.array(z.uuid()), enrolledOnly: z.boolean(), withFamilyOnly: z.boolean() }),
  dailyCap: z.number().int().nullable(),
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable(),
  /** From the schedule and isActive at the time of the answer. */
  status: z.enum(POPUP_STATUSES),
  /** Start of the current or next occurrence (ISO), or null when none is left. */
  nextOccurrenceAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type AdminPopup = z.infer<typeof AdminPopupSchema>;

/** POST /api/admin/popups/reach: how many members an audience reaches now ("Reaches about N members"). */
export const PopupReachResponseSchema = z.object({ audienceSize: z.number().int() });
export type PopupReachResponse = z.infer<typeof PopupReachResponseSchema>;

/** GET /api/admin/popups/action-urls: the https sites a popup's button may open (POPUP_ACTION_URLS). */
export const PopupActionUrlsResponseSchema = z.object({ urls: z.array(z.string()) });
export type PopupActionUrlsResponse = z.infer<typeof PopupActionUrlsResponseSchema>;

/** GET /api/admin/popups/{id}/results: per day in the popup's time zone, oldest first. */
export const PopupResultsResponseSchema = z.object({
  days: z.array(z.object({ date: z.iso.date(), shows: z.number().int(), snoozes: z.number().int(), completions: z.number().int() })),
  audienceSize: z.number().int(),
});
export type PopupResultsResponse = z.infer<typeof PopupResultsResponseSchema>;

/** Exact counts of recorded show, snooze and completion events. */
export const PopupStatisticsSchema = z.object({
  totalShows: z.number().int(),
  totalSnoozes: z.number().int(),
  totalCompletions: z.number().int(),
});
export type PopupStatistics = z.infer<typeof PopupStatisticsSchema>;

export const AdminPopupListItemSchema = AdminPopupSchema.extend({ statistics: PopupStatisticsSchema });
export type AdminPopupListItem = z.infer<typeof AdminPopupListItemSchema>;

export const AdminPopupListResponseSchema = z.object({ popups: z.array(AdminPopupListItemSchema) });
export type AdminPopupListResponse = z.infer<typeof AdminPopupListResponseSchema>;

export const POPUP_SORT_FIELDS = ['priority', 'title', 'createdAt'] as const;
export type PopupSortField = (typeof POPUP_SORT_FIELDS)[number];

/** GET /api/admin/popups query (spec section 7); empty values mean "not set". */
export const AdminPopupListQuerySchema = z.object({
  search: z.preprocess(emptyAsUndefined, z.string().trim().max(100, v.searchTooLong).optional()),
  status: z.preprocess(emptyAsUndefined, z.enum(['active', 'inactive'], { error: v.statusInvalid }).optional()),
  sortBy: z.preprocess(emptyAsUndefined, z.enum(POPUP_SORT_FIELDS, { error: v.sortByInvalid }).default('priority')),
  sortOrder: z.preprocess(emptyAsUndefined, z.enum(SORT_ORDERS, { error: v.sortOrderInvalid }).default('desc')),
});
export type AdminPopupListQuery = z.input<typeof AdminPopupListQuerySchema>;

/** The popup as the member sees it (product decisions: member popup shape). */
export const MemberPopupSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  message: z.string(),
  theme: PopupThemeSchema,
  canSnooze: z.boolean(),
  snoozeCount: z.number().int(),
  maxSnoozes: z.number().int(),
  isLastReminder: z.boolean(),
  /** The button's text and where it goes (an app path, or an https URL opened in a new tab). */
  actionLabel: z.string(),
  actionTarget: z.string(),
});
export type MemberPopup = z.infer<typeof MemberPopupSchema>;

/** GET /api/popups/next: the page the member is on, and why the client asks. */
export const NextPopupQuerySchema = z.object({
  context: z.preprocess(emptyAsUndefined, z.enum(['login'], { error: v.contextInvalid }).default('login')),
  route: z.preprocess(emptyAsUndefined, z.enum(POPUP_TARGETS, { error: v.routeInvalid }).default('home')),
});
export type NextPopupQuery = z.input<typeof NextPopupQuerySchema>;

export const ActivePopupsResponseSchema = z.object({ popups: z.array(MemberPopupSchema) });
export type ActivePopupsResponse = z.infer<typeof ActivePopupsResponseSchema>;

export const PopupCompletedResponseSchema = z.object({ id: z.uuid(), completed: z.literal(true) });
export type PopupCompletedResponse = z.infer<typeof PopupCompletedResponseSchema>;

export const PopupDeletedResponseSchema = z.object({ ok: z.literal(true) });
