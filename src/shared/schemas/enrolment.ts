import { z } from 'zod';
import { enrolment } from '../messages/enrolment';
import { emptyOrNullAsUndefined } from './common';
import { EmployerNameSchema } from './employer-name';

const v = enrolment.validation;

export const ENROLMENT_MODES = ['open', 'roster'] as const;
export const EnrolmentModeSchema = z.enum(ENROLMENT_MODES, { error: v.enrolmentModeInvalid });
export type EnrolmentMode = z.infer<typeof EnrolmentModeSchema>;

/** The largest roster file accepted (bytes): about 500,000 rows of typical names. */
export const ROSTER_MAX_BYTES = 20 * 1024 * 1024;
/** How many bad rows and unlisted members an answer lists; the totals are always exact. */
export const ROSTER_LIST_CAP = 100;
/** Header names the importer knows (compared case-insensitively, spaces trimmed). */
export const ROSTER_COLUMNS = { programmeId: 'programme_id', firstName: 'first_name', lastName: 'last_name', email: 'email' } as const;

export const ROSTER_IMPORT_MODES = ['dry-run', 'import'] as const;

/** POST /api/admin/employers/{companyId}/roster?mode=dry-run|import, the CSV file as the body. */
export const RosterImportQuerySchema = z.object({
  mode: z.preprocess(emptyOrNullAsUndefined, z.enum(ROSTER_IMPORT_MODES, { error: v.importModeInvalid }).default('dry-run')),
});
export type RosterImportQuery = z.input<typeof RosterImportQuerySchema>;

export const RosterBadRowSchema = z.object({
  /** Line of the file (the header is line 1) where the row ends. */
  line: z.number().int(),
  reason: z.string(),
});
export type RosterBadRow = z.infer<typeof RosterBadRowSchema>;

export const UnlistedMemberSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  lhmpId: z.string(),
  email: z.string(),
});
export type UnlistedMember = z.infer<typeof UnlistedMemberSchema>;

/**
 * What an import did, or (dry run) would do. `added + updated + unchanged` are the good rows;
 * `removed` are roster entries whose programme ID is nowhere in the file.
 */
export const RosterImportSummarySchema = z.object({
  mode: z.enum(ROSTER_IMPORT_MODES),
  /** False for a dry run: the counts say what an import of this file would do. */
  applied: z.boolean(),
  /** Data rows read (blank lines and the header not counted). */
  rows: z.number().int(),
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  removed: z.number().int(),
  badRows: z.object({ total: z.number().int(), shown: z.array(RosterBadRowSchema) }),
  /** Registered members of the employer whose programme ID is not on the roster afterwards. Never deleted. */
  membersNotListed: z.object({ total: z.number().int(), shown: z.array(UnlistedMemberSchema) }),
  /** The employer's mode afterwards: an import switches it to `roster`. */
  enrolmentMode: EnrolmentModeSchema,
});
export type RosterImportSummary = z.infer<typeof RosterImportSummarySchema>;

/** GET /api/admin/employers/{companyId}/enrolment: the mode and the roster's size. */
export const EnrolmentStatusResponseSchema = z.object({
  enrolmentMode: EnrolmentModeSchema,
  rosterEntries: z.number().int(),
});
export type EnrolmentStatusResponse = z.infer<typeof EnrolmentStatusResponseSchema>;

/** PATCH /api/admin/employers/{companyId}/enrolment. */
export const EnrolmentModeUpdateSchema = z.object({ enrolmentMode: EnrolmentModeSchema });
export type EnrolmentModeUpdate = z.input<typeof EnrolmentModeUpdateSchema>;

/** POST /api/admin/employers: an employer created by an administrator (to import its roster). */
export const CreateEmployerRequestSchema = z.object({ name: EmployerNameSchema });
export type CreateEmployerRequest = z.input<typeof CreateEmployerRequestSchema>;

export const CreateEmployerResponseSchema = z.object({
  employer: z.object({ id: z.uuid(), name: z.string(), enrolmentMode: EnrolmentModeSchema }),
});
export type CreateEmployerResponse = z.infer<typeof CreateEmployerResponseSchema>;

/** Suggestions start at this many characters. */
export const SUGGEST_MIN_CHARS = 3;
export const SUGGEST_MAX_RESULTS = 5;

/** GET /api/employers/suggest?q=: what the member has typed into the Employer field. */
export const EmployerSuggestQuerySchema = z.object({
  q: z
    .string({ error: v.suggestTooShort })
    .trim()
    .min(SUGGEST_MIN_CHARS, v.suggestTooShort)
    .max(100, v.suggestTooLong),
});
export type EmployerSuggestQuery = z.input<typeof EmployerSuggestQuerySchema>;

export const EmployerSuggestResponseSchema = z.object({
  employers: z.array(z.object({ name: z.string() })).max(SUGGEST_MAX_RESULTS),
});
export type EmployerSuggestResponse = z.infer<typeof EmployerSuggestResponseSchema>;
