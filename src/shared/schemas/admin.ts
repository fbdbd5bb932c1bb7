import { z } from 'zod';
import { messages } from '../messages/index';
import { emptyOrNullAsUndefined, SORT_ORDERS } from './common';
import { pathId } from './ids';

export { SORT_ORDERS, type SortOrder } from './common';

const v = messages.admin.validation;

/** Employee list page size (spec section 9). */
export const ADMIN_PAGE_SIZE = 25;
export const ADMIN_MAX_PAGE = 100_000;
export const ADMIN_MAX_SIZE = 100;
/**
 * A search term without three letters or digits in a row ("ar", "j s") has no trigram for the
 * search index, so its count stops past this many matches in list order (then past the next
 * multiple of it that covers the page asked for): the list says "more than N" instead of
 * counting every match in a 64,000-employee employer (docs/decisions/admin-search-short-terms.md).
 */
export const ADMIN_SHORT_SEARCH_COUNT_STEP = 1000;

/**
 * A search term: trimmed, at most 100 characters, no control characters (the search index
 * separates fields with a line break). Blank means no search. `%` and `_` are literal.
 */
export const AdminSearchSchema = z.preprocess(
  emptyOrNullAsUndefined,
  z
    .string({ error: v.searchTooLong })
    .trim()
    .max(100, v.searchTooLong)
    // eslint-disable-next-line no-control-regex
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), v.searchInvalid)
    .transform((s) => (s === '' ? undefined : s))
    .optional(),
);

/** A whole number in a query string ("2") or in code (2). */
const wholeNumber = (min: number, max: number, message: string, fallback: number) =>
  z.preprocess(
    (value) => {
      if (value === undefined || value === '') return undefined;
      if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
      return value;
    },
    z.number({ error: message }).int(message).min(min, message).max(max, message).default(fallback),
  );

export const EMPLOYER_SORT_FIELDS = ['name', 'lastActivity'] as const;
export type EmployerSortField = (typeof EMPLOYER_SORT_FIELDS)[number];

/** GET /api/admin/employers query. */
export const EmployerListQuerySchema = z.object({
  search: AdminSearchSchema,
  sortBy: z.preprocess(emptyOrNullAsUndefined, z.enum(EMPLOYER_SORT_FIELDS, { error: v.sortByInvalid }).default('name')),
  sortOrder: z.preprocess(emptyOrNullAsUndefined, z.enum(SORT_ORDERS, { error: v.sortOrderInvalid }).default('asc')),
});
export type EmployerListQuery = z.input<typeof EmployerListQuerySchema>;
export type EmployerListQueryParsed = z.output<typeof EmployerListQuerySchema>;

/** One employer in the admin list (product decisions, Admin lists). */
export const EmployerSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  employees: z.number().int(),
  participants: z.number().int(),
  familyMembers: z.number().int(),
  /** Latest sign-in of any of its users; null when nobody has signed in ('Never'). */
  lastActivity: z.iso.datetime().nullable(),
});
export type EmployerSummary = z.infer<typeof EmployerSummarySchema>;

export const EmployerListResponseSchema = z.object({ employers: z.array(EmployerSummarySchema) });
export type EmployerListResponse = z.infer<typeof EmployerListResponseSchema>;

export const CompanyIdParamsSchema = z.object({ companyId: pathId(messages.admin.server.employerNotFound) });
export const UserIdParamsSchema = z.object({ userId: pathId(messages.admin.server.employeeNotFound) });

/** GET /api/admin/employers/{companyId}. */
export const EmployerDetailSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  employees: z.number().int(),
  participants: z.number().int(),
  familyMembers: z.number().int(),
});
export type EmployerDetail = z.infer<typeof EmployerDetailSchema>;
export const EmployerDetailResponseSchema = z.object({ employer: EmployerDetailSchema });
export type EmployerDetailResponse = z.infer<typeof EmployerDetailResponseSchema>;

export const EMPLOYEE_STATUSES = ['verified', 'enrolled', 'not_enrolled'] as const;
export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];

/** GET /api/admin/employers/{companyId}/employees query; status omitted means all. */
export const EmployeeListQuerySchema = z.object({
  search: AdminSearchSchema,
  status: z.preprocess(emptyOrNullAsUndefined, z.enum(EMPLOYEE_STATUSES, { error: v.statusInvalid }).optional()),
  page: wholeNumber(1, ADMIN_MAX_PAGE, v.pageInvalid, 1),
  size: wholeNumber(1, ADMIN_MAX_SIZE, v.sizeInvalid, ADMIN_PAGE_SIZE),
});
export type EmployeeListQuery = z.input<typeof EmployeeListQuerySchema>;
export type EmployeeListQueryParsed = z.output<typeof EmployeeListQuerySchema>;

export const EmployeeListItemSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  lhmpId: z.string(),
  lastLogin: z.iso.datetime().nullable(),
  emailVerified: z.boolean(),
  enrolled: z.boolean(),
  familyMemberCount: z.number().int(),
});
export type EmployeeListItem = z.infer<typeof EmployeeListItemSchema>;

export const PaginationSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  totalPages: z.number().int(),
  size: z.number().int(),
  /**
   * True when the count stopped early (a short search term): more than `total` employees match,
   * and `totalPages` counts only the pages of those `total`; there is a next page after the last.
   */
  totalIsCapped: z.boolean(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const EmployeeListResponseSchema = z.object({
  employees: z.array(EmployeeListItemSchema),
  pagination: PaginationSchema,
});
export type EmployeeListResponse = z.infer<typeof EmployeeListResponseSchema>;

/** GET /api/admin/employees/{userId}: the employee and their family (admin view). */
export const EmployeeDetailSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  lhmpId: z.string(),
  companyId: z.uuid(),
  companyName: z.string(),
  createdAt: z.iso.datetime(),
  emailVerifiedAt: z.iso.datetime().nullable(),
  enrolledAt: z.iso.datetime().nullable(),
  lastLoginAt: z.iso.datetime().nullable(),
  familyMemberCount: z.number().int(),
});
export type EmployeeDetail = z.infer<typeof EmployeeDetailSchema>;

export const AdminFamilyMemberSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  relationship: z.string(),
  createdAt: z.iso.datetime(),
});
export type AdminFamilyMember = z.infer<typeof AdminFamilyMemberSchema>;

export const EmployeeDetailResponseSchema = z.object({
  employee: EmployeeDetailSchema,
  familyMembers: z.array(AdminFamilyMemberSchema),
});
export type EmployeeDetailResponse = z.infer<typeof EmployeeDetailResponseSchema>;
