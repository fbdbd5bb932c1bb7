import { signIn as english } from '#shared/messages/sign-in';
import type { Translation } from '#shared/messages/translation';
import { inLanguage } from '../language';

/** The sign-in strings in the page's language (lib/language.ts). */
export const signIn: Translation<typeof english> = inLanguage((catalogue) => catalogue.auth.signIn, english);
