import Negotiator from 'negotiator';
import type { FastifyRequest } from 'fastify';
import { translationsBySource } from '#shared/i18n/by-source';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '#shared/i18n/languages';
import { messages as english } from '#shared/messages/index';
import { messages as spanish } from '#shared/messages/es/index';
import type { ErrorBody } from '#shared/errors';

const AVAILABLE = [...LANGUAGES];

/** The caller's language: the best of its `Accept-Language` that the app speaks, else English. */
export function requestLanguage(request: FastifyRequest): Language {
  const header = request.headers['accept-language'];
  if (!header) return DEFAULT_LANGUAGE;
  const best = new Negotiator({ headers: { 'accept-language': header } }).language(AVAILABLE);
  return (best as Language | undefined) ?? DEFAULT_LANGUAGE;
}

const bySource: Record<Exclude<Language, 'en'>, Map<string, string>> = {
  es: translationsBySource(english, spanish),
};

/** An English catalogue sentence in `language`; text that is not in the catalogue stays as it is. */
export function translate(text: string, language: Language): string {
  return language === 'en' ? text : (bySource[language].get(text) ?? text);
}

/** An error answer in the caller's language: its sentence and each field's message. */
export function localizeErrorBody(body: ErrorBody, language: Language): ErrorBody {
  if (language === 'en') return body;
  const fields = body.fields ? Object.fromEntries(Object.entries(body.fields).map(([k, v]) => [k, translate(v, language)])) : undefined;
  return { ...body, error: translate(body.error, language), ...(fields ? { fields } : {}) };
}
