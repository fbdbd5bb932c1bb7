import { type Messages, messages } from '#shared/messages/index';
import type { Translation } from '#shared/messages/translation';
import { inLanguage, registerEnglish } from './language';

registerEnglish(messages);

/** The active message catalogue, in the page's language. Components read strings from here, never inline. */
export const t: Translation<Messages> = inLanguage((catalogue) => catalogue, messages);
