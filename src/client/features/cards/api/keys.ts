/**
 * Query keys of the cards area. Not `/api/...` keys on purpose: the cards keep their own copy
 * on the device (lib/card-store, kept with "Keep my cards on this device"), so the general
 * answer store, which sign-out always removes, does not hold a second one.
 */
export const cardKeys = {
  all: ['cards'] as const,
  mine: (userId: string) => ['cards', 'mine', userId] as const,
  saved: ['cards', 'saved'] as const,
  publicKey: ['cards', 'public-key'] as const,
};
