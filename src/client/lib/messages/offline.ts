import { offline as english } from '#shared/messages/offline';
import type { Translation } from '#shared/messages/translation';
import { inLanguage } from '../language';

/** The offline strings in the page's language (lib/language.ts). */
export const offline: Translation<typeof english> = inLanguage((catalogue) => catalogue.offline, english);
