import { cardUi as english } from '#shared/messages/card-ui';
import type { Translation } from '#shared/messages/translation';
import { inLanguage } from '../language';

/** The card-ui strings in the page's language (lib/language.ts). */
export const cardUi: Translation<typeof english> = inLanguage((catalogue) => catalogue.cardUi, english);
