/**
 * The server's own refusals (plugins/errors.ts): what the framework, the database or the
 * network decided, not a feature. Not part of any screen: the client shows its own words for
 * `internal` and no answer.
 */
export const server = {
  internal: 'Internal server error',
  unavailable: 'Service temporarily unavailable. Please try again shortly.',
  payloadTooLarge: 'Request body is too large',
  unsupportedMediaType: 'Unsupported content type',
  malformedBody: 'Malformed request body',
  badRequest: 'Bad request',
  invalidValue: 'Invalid value',
  invalidRequest: 'Invalid request',
  clientClosed: 'Client closed the request',
  urlTooLong: 'Request URL is too long',
  malformedUrl: 'Malformed request URL',
} as const;
