import { messages } from '#shared/messages/index';

/** The active message catalogue. Components read strings from here, never inline. */
export const t = messages;
