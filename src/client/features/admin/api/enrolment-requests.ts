import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ErrorBody } from '#shared/errors';
import type {
  CreateEmployerRequest,
  CreateEmployerResponse,
  EnrolmentMode,
  EnrolmentStatusResponse,
  RosterImportSummary,
} from '#shared/schemas/enrolment';
import { ApiError, apiSend, isErrorBody, sessionEnded, urlQueryOptions } from '../../../lib/api-client';
import { storedToken } from '../../../lib/auth-storage';
import { queryKeys } from '../../../lib/query-keys';

const EMPLOYERS = '/api/admin/employers';

/** GET /api/admin/employers/{companyId}/enrolment: the mode and the roster's size. */
export function useEnrolment(companyId: string, enabled: boolean) {
  return useQuery({ ...urlQueryOptions<EnrolmentStatusResponse>(queryKeys.admin.enrolment(companyId)), enabled });
}

/** PATCH the mode; the answer is the new status. */
export function useSetEnrolmentMode(companyId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enrolmentMode: EnrolmentMode) =>
      apiSend<EnrolmentStatusResponse>('PATCH', `${EMPLOYERS}/${encodeURIComponent(companyId)}/enrolment`, { enrolmentMode }),
    onSuccess: (status) => queryClient.setQueryData(queryKeys.admin.enrolment(companyId), status),
  });
}

/** POST /api/admin/employers: the new employer; the employer list is asked again. */
export function useCreateEmployer() {
  const queryClient = useQueryClient();
  return useMutation({
    /** `idempotencyKey`: one per form submission, the same for its retries (lib/submission-key.ts). */
    mutationFn: ({ input, idempotencyKey }: { input: CreateEmployerRequest; idempotencyKey: string }) =>
      apiSend<CreateEmployerResponse>('POST', EMPLOYERS, input, { idempotencyKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.employers }),
  });
}

/** After an import the employer's figures and its enrolment status are asked again. */
export function refreshAfterImport(queryClient: ReturnType<typeof useQueryClient>, companyId: string) {
  return queryClient.invalidateQueries({ queryKey: queryKeys.admin.employer(companyId) });
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * Sends a roster file as text/csv. XMLHttpRequest rather than fetch: it reports upload
 * progress, which is the import's progress (the server reads the file as it stages it).
 */
export function uploadRoster(
  companyId: string,
  file: Blob,
  mode: 'dry-run' | 'import',
  onProgress: (progress: UploadProgress) => void,
): Promise<RosterImportSummary> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${EMPLOYERS}/${encodeURIComponent(companyId)}/roster?mode=${mode}`);
    xhr.setRequestHeader('content-type', 'text/csv');
    const token = storedToken();
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onerror = () => reject(new TypeError('network'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status === 200) {
        resolve(body as RosterImportSummary);
        return;
      }
      if (xhr.status === 401 && token) {
        reject(sessionEnded(token));
        return;
      }
      const error: ErrorBody | undefined = isErrorBody(body) ? body : undefined;
      reject(new ApiError(xhr.status, `${xhr.status}: ${xhr.responseText || xhr.statusText}`, error));
    };
    xhr.send(file);
  });
}
