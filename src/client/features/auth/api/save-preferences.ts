import type { Language } from '#shared/i18n/languages';
import type { Preferences } from '#shared/schemas/auth';
import { apiSend } from '../../../lib/api-client';

/** Saves the signed-in member's language on the account, so their other devices follow it. */
export const saveLanguageOnAccount = (language: Language) => apiSend<Preferences>('PATCH', '/api/me/preferences', { language } satisfies Preferences);
