/** Query keys of the auth area (sign-in and registration screens). */
export const authKeys = {
  /** GET /api/employers/suggest?q=: one entry per text typed (trimmed). */
  employerSuggestions: (q: string) => ['/api/employers/suggest', { q }] as const,
};
