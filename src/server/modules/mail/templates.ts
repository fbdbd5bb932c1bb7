import type { Language } from '#shared/i18n/languages';
import { messages as english } from '#shared/messages/index';
import { messages as spanish } from '#shared/messages/es/index';
import { DEFAULT_BRAND_PRIMARY_COLOR } from '../../config';

/** Every message the app sends. */
export type MailTemplate = 'verify_email' | 'reset_password' | 'password_changed' | 'set_password' | 'mfa_reset';

export const MAIL_TEMPLATES: readonly MailTemplate[] = ['verify_email', 'reset_password', 'password_changed', 'set_password', 'mfa_reset'];

export interface Branding {
  brandName: string;
  /** #rrggbb; the configuration guarantees 4.5:1 against white, so it works as text and as a button. */
  brandPrimaryColor: string;
}

export interface RenderInput {
  template: MailTemplate;
  firstName: string;
  /** Absolute link, or undefined for a notice without one. */
  link?: string | undefined;
  /** The recipient's language; English when not given. */
  language?: Language | undefined;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c as keyof typeof HTML_ESCAPES] ?? c);
}

/** A single line of plain text: no control characters (a name cannot add lines or headers). */
function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
}

/** Only http(s) links are ever rendered; anything else is a programming error. */
function safeLink(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  const url = new URL(link);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('mail links must be http(s)');
  return url.toString();
}

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/** Subject, plain text and HTML of one message, from the catalogue and the brand. */
export function renderMail(input: RenderInput, brand: Branding): RenderedMail {
  const language = input.language ?? 'en';
  const m = (language === 'es' ? spanish : english).mail;
  const t = m.templates[input.template];
  const brandName = oneLine(brand.brandName);
  const color = /^#[0-9a-fA-F]{6}$/.test(brand.brandPrimaryColor) ? brand.brandPrimaryColor : DEFAULT_BRAND_PRIMARY_COLOR;
  const firstName = oneLine(input.firstName).slice(0, 100);
  const link = safeLink(input.link);
  const greeting = m.greeting(firstName);
  const intro = t.intro(brandName);
  const advice = t.advice(brandName);

  const text = [
    greeting,
    intro,
    ...(link ? [`${t.action}:\n${link}`] : []),
    ...(link && t.validity ? [t.validity] : []),
    advice,
    m.signature(brandName),
    `--\n${m.footer(brandName)}`,
  ].join('\n\n');

  const e = escapeHtml;
  const p = (content: string, style = '') => `<p style="${style || 'margin:0 0 16px;'}">${content}</p>`;
  const button = link
    ? p(
        `<a href="${e(link)}" style="display:inline-block;background-color:${e(color)};color:#ffffff;padding:12px 24px;border-radius:6px;text-decoration:none;font-weight:600;">${e(t.action)}</a>`,
        'margin:24px 0;',
      ) +
      (t.validity ? p(e(t.validity)) : '') +
      p(
        `${e(m.linkFallback)}<br><a href="${e(link)}" style="color:${e(color)};word-break:break-all;">${e(link)}</a>`,
        'margin:0 0 16px;font-size:14px;color:#3f3f46;',
      )
    : '';
  const html = [
    '<!doctype html>',
    `<html lang="${language}" dir="ltr">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${e(t.subject)}</title>`,
    '</head>',
    `<body style="margin:0;padding:0;background-color:#f4f4f5;color:#18181b;font-family:${FONT};font-size:16px;line-height:1.5;">`,
    `<div role="article" aria-roledescription="email" aria-label="${e(t.subject)}" lang="${language}" style="max-width:560px;margin:0 auto;padding:24px 16px;">`,
    `<div style="background-color:#ffffff;border-radius:8px;padding:24px;border-top:4px solid ${e(color)};">`,
    p(e(brandName), `margin:0 0 16px;font-size:18px;font-weight:700;color:${e(color)};`),
    `<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#18181b;">${e(t.subject)}</h1>`,
    p(e(greeting)),
    p(e(intro)),
    button,
    p(e(advice)),
    p(e(m.signature(brandName)), 'margin:0;'),
    '</div>',
    p(e(m.footer(brandName)), 'margin:16px 0 0;font-size:13px;color:#52525b;'),
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');

  return { subject: t.subject, text, html };
}
