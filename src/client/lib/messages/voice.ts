import { voice as english } from '#shared/messages/voice';
import type { Translation } from '#shared/messages/translation';
import { inLanguage } from '../language';

/** The voice strings in the page's language (lib/language.ts). */
export const voice: Translation<typeof english> = inLanguage((catalogue) => catalogue.voice, english);
