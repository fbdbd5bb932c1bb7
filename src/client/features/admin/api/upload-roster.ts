import type { QueryClient } from '@tanstack/react-query';
import type { ErrorBody } from '#shared/errors';
import type { RosterImportSummary } from '#shared/schemas/enrolment';
import { ApiError, isErrorBody, sessionEnded } from '../../../lib/api-client';
import { storedToken } from '../../../lib/auth-storage';
import { queryKeys } from '../../../lib/query-keys';

/** After an import the employer's figures and its enrolment status are asked again. */
export function refreshAfterImport(queryClient: QueryClient, companyId: string) {
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
    xhr.open('POST', `/api/admin/employers/${encodeURIComponent(companyId)}/roster?mode=${mode}`);
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
