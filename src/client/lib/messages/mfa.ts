import { mfa as english } from '#shared/messages/mfa';
import type { Translation } from '#shared/messages/translation';
import { inLanguage } from '../language';

/** The mfa strings in the page's language (lib/language.ts). */
export const mfa: Translation<typeof english> = inLanguage((catalogue) => catalogue.mfa, english);
