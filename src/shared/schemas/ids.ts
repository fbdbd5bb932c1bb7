import { z } from 'zod';

/**
 * The one id schema for a path parameter: a UUID. Anything else names nothing, so it is
 * answered like an unknown id, a 404 with `notFound` (the error handler turns a path
 * parameter that fails its schema into a 404, never a 400; docs/decisions/error-codes.md).
 */
export const pathId = (notFound: string) => z.uuid({ error: notFound });
