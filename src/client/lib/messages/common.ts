import { common as english } from '#shared/messages/common';
import type { Translation } from '#shared/messages/translation';
import { inLanguage } from '../language';

/** The common strings in the page's language (lib/language.ts). */
export const common: Translation<typeof english> = inLanguage((catalogue) => catalogue.common, english);
