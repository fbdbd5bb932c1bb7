import { members as english } from '#shared/messages/members';
import type { Translation } from '#shared/messages/translation';
import { inLanguage } from '../language';

/** The members strings in the page's language (lib/language.ts). */
export const members: Translation<typeof english> = inLanguage((catalogue) => catalogue.members, english);
