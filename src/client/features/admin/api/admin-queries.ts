import { type QueryClient, keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  EmployeeDetailResponse,
  EmployeeListQuery,
  EmployeeListResponse,
  EmployerDetailResponse,
  EmployerListQuery,
  EmployerListResponse,
} from '#shared/schemas/admin';
import type { AdminAccessRequest, AdminAccessResponse } from '#shared/schemas/auth';
import { ApiError, apiSend, urlQueryOptions } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const isForbidden = (err: unknown) => err instanceof ApiError && err.code === 'forbidden';
/** Unknown or malformed: the server answers both `not_found` (one id rule, docs/decisions/error-codes.md). */
export const isNotFound = (err: unknown) => err instanceof ApiError && err.code === 'not_found';
/** The server's sentence for an error, else the spec's "status: body" message. */
export const errorMessage = (err: unknown) => (err instanceof ApiError ? (err.serverMessage ?? err.message) : err instanceof Error ? err.message : String(err));

export function useEmployers(query: EmployerListQuery) {
  return useQuery({ ...urlQueryOptions<EmployerListResponse>(queryKeys.admin.employerList(query)), placeholderData: keepPreviousData });
}

export function useEmployer(companyId: string, enabled: boolean) {
  return useQuery({ ...urlQueryOptions<EmployerDetailResponse>(queryKeys.admin.employer(companyId)), enabled });
}

export function useEmployees(companyId: string, query: EmployeeListQuery) {
  return useQuery({ ...urlQueryOptions<EmployeeListResponse>(queryKeys.admin.employees(companyId, query)), placeholderData: keepPreviousData });
}

/**
 * An employee's record. Every look is audited on the server, so it is never served from the
 * cache: each visit asks again (gcTime 0 drops it as soon as the page leaves).
 */
export function useEmployee(userId: string, enabled: boolean) {
  return useQuery({ ...urlQueryOptions<EmployeeDetailResponse>(queryKeys.admin.employee(userId)), enabled, gcTime: 0 });
}

/**
 * POST /api/admin/access: the server checks the credentials, then (with `code`) the second
 * factor, and answers a NEW elevated token; without a code it says whether to set one up.
 */
export const adminAccessRequest = (input: AdminAccessRequest) => apiSend<AdminAccessResponse>('POST', '/api/admin/access', input);

/**
 * After the Admin Access step-up every admin read is asked again: the ones refused with 403
 * (and anything cached under the old access) start from the loading state.
 */
export function resetAdminQueries(queryClient: QueryClient) {
  return queryClient.resetQueries({ queryKey: queryKeys.admin.all });
}
