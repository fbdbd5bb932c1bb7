import { describe, expect, it } from 'vitest';
import { DEFAULT_BRAND_PRIMARY_COLOR } from '../../config';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, backoffMs, shortError } from './outbox-worker';
import { MAIL_TEMPLATES, escapeHtml, renderMail } from './templates';

const brand = { brandName: 'Wellhaven', brandPrimaryColor: DEFAULT_BRAND_PRIMARY_COLOR };
const link = 'https://app.example/verify-email?token=abc_DEF-123';

describe('mail templates', () => {
  it.each([
    ['verify_email', 'Verify your email address', '24 hours'],
    ['reset_password', 'Reset your password', '1 hour'],
    ['password_changed', 'Your password was changed', "If this wasn't you"],
    ['set_password', 'Set your administrator password', 'works once'],
    ['mfa_reset', 'Your two-step sign-in was reset', "If you didn't ask for this"],
  ] as const)('%s: a clear subject, both bodies, the link as a button and as text', (template, subject, phrase) => {
    const mail = renderMail({ template, firstName: 'Zoë', link }, brand);
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain('Hello Zoë,');
    expect(mail.text).toContain(phrase);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain('<html lang="en"');
    expect(mail.html).toContain(`<title>${subject.replace("'", '&#39;')}</title>`);
    // A real link text, and the same link written out for copying.
    const button = mail.html.split(`<a href="${link}"`)[1]!.split('</a>')[0]!;
    expect(button.slice(button.indexOf('>') + 1)).toMatch(/^[A-Z][a-z ]+$/);
    expect(mail.html).toContain(`>${link}</a>`);
    expect(mail.html).toContain(DEFAULT_BRAND_PRIMARY_COLOR);
  });

  it('every template renders without a link too (a notice), with no empty button', () => {
    for (const template of MAIL_TEMPLATES) {
      const mail = renderMail({ template, firstName: 'Sam' }, brand);
      expect(mail.html).not.toContain('<a ');
      expect(mail.text).not.toMatch(/https?:/);
    }
  });

  it('escapes every interpolated value in the HTML and keeps names on one line in the text', () => {
    const mail = renderMail(
      { template: 'reset_password', firstName: '<img src=x onerror=alert(1)>\r\nBcc: evil@example.test', link: 'https://app.example/reset-password?token=a&b="c"' },
      { brandName: 'Acme <b>"Care"</b> & Co', brandPrimaryColor: '#123456' },
    );
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('Acme &lt;b&gt;&quot;Care&quot;&lt;/b&gt; &amp; Co');
    expect(mail.html).toContain('href="https://app.example/reset-password?token=a&amp;b=%22c%22"');
    expect(mail.html).toContain('#123456');
    expect(mail.text).toContain('Hello <img src=x onerror=alert(1)> Bcc: evil@example.test,');
    expect(mail.text.split('\n')[0]).toBe('Hello <img src=x onerror=alert(1)> Bcc: evil@example.test,');
  });

  it('refuses links that are not http(s)', () => {
    expect(() => renderMail({ template: 'verify_email', firstName: 'A', link: 'javascript:alert(1)' }, brand)).toThrow();
  });

  it('escapeHtml covers the five characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('outbox retry policy', () => {
  it('backs off exponentially with jitter, between 30 s and 1 h', () => {
    expect(backoffMs(1, () => 0.5)).toBe(BACKOFF_BASE_MS);
    expect(backoffMs(2, () => 0.5)).toBe(2 * BACKOFF_BASE_MS);
    expect(backoffMs(5, () => 0.5)).toBe(16 * BACKOFF_BASE_MS);
    expect(backoffMs(3, () => 0)).toBe(0.8 * 4 * BACKOFF_BASE_MS);
    expect(backoffMs(3, () => 1)).toBe(1.2 * 4 * BACKOFF_BASE_MS);
    for (let attempts = 1; attempts <= 60; attempts++) {
      for (const r of [0, 0.3, 0.999]) {
        const ms = backoffMs(attempts, () => r);
        expect(ms).toBeGreaterThanOrEqual(BACKOFF_BASE_MS);
        expect(ms).toBeLessThanOrEqual(BACKOFF_CAP_MS);
      }
    }
    expect(backoffMs(40, () => 0.5)).toBe(BACKOFF_CAP_MS);
  });

  it('keeps a failure short and free of links, addresses and tokens', () => {
    const err = Object.assign(new Error(`Can't send mail to member@example.test: 550 see https://x.example/reset?token=${'a'.repeat(43)}\nsecond line body`), {
      responseCode: 550,
    });
    const s = shortError(err);
    expect(s.startsWith('550 ')).toBe(true);
    expect(s).not.toContain('member@example.test');
    expect(s).not.toContain('https://');
    expect(s).not.toContain('aaaaaaaaaa');
    expect(s).not.toContain('second line');
    expect(shortError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:2525'), { code: 'ECONNREFUSED' }))).toBe(
      'ECONNREFUSED connect ECONNREFUSED 127.0.0.1:2525',
    );
    expect(shortError(new Error('x'.repeat(1000))).length).toBeLessThanOrEqual(200);
  });
});
