import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateEmployerRequest, CreateEmployerResponse } from '#shared/schemas/enrolment';
import { apiSend } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/admin/employers. `idempotencyKey`: one per form submission, the same for its retries (lib/submission-key.ts). */
export const createEmployer = ({ input, idempotencyKey }: { input: CreateEmployerRequest; idempotencyKey: string }) =>
  apiSend<CreateEmployerResponse>('POST', '/api/admin/employers', input, { idempotencyKey });

/** The new employer; the employer lists are asked again. */
export function useCreateEmployer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEmployer,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.employers }),
  });
}
