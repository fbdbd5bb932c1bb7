import type { DbOrTx } from '#db/client';
import type { Language } from '#shared/i18n/languages';
import { type Config, DEFAULT_BRAND_PRIMARY_COLOR } from '../../config';
import type { Clock } from '../../lib/clock';
import { insertMessage } from './outbox.repository';
import { type MailTemplate, renderMail } from './templates';

/** Every message the app sends; each has a template in templates.ts. */
export type { MailTemplate } from './templates';

/**
 * One message to queue. What `path` each template expects:
 * - `verify_email`: `/verify-email?token=...` (24 h)
 * - `reset_password`: `/reset-password?token=...` (1 h)
 * - `password_changed`: optional; `/forgot-password` (the button reads "Reset your password")
 * - `set_password`: the set-password page with its token
 * - `mfa_reset`: optional; `/login` (the button reads "Sign in")
 */
export interface MailRequest {
  to: string;
  template: MailTemplate;
  /** The recipient's first name, for the greeting. */
  firstName: string;
  /** App path with its query (e.g. `/verify-email?token=...`); made absolute with PUBLIC_URL. */
  path?: string;
  /**
   * The recipient's language: the one saved on their account, else that of the request that
   * caused the mail (its caller decides, from rows it already read); English when not given.
   */
  language?: Language | null | undefined;
}

export interface MailerDeps {
  clock: Clock;
  publicUrl: string;
  brandName: string;
  /** BRAND_PRIMARY_COLOR; the configuration's default (DEFAULT_BRAND_PRIMARY_COLOR) when absent. */
  brandPrimaryColor?: string;
  /** Called after each queue (the transaction may not have committed yet): the app kicks the worker. */
  onQueued?: () => void;
}

/**
 * Mail through the outbox: `queue` writes the rendered message in the caller's transaction,
 * so it goes out exactly when the change that caused it commits (and never when it rolls
 * back). The outbox worker (outbox-worker.ts) sends it.
 */
export function createMailer(deps: MailerDeps) {
  const brand = { brandName: deps.brandName, brandPrimaryColor: deps.brandPrimaryColor ?? DEFAULT_BRAND_PRIMARY_COLOR };
  return {
    async queue(tx: DbOrTx, mail: MailRequest): Promise<void> {
      if (mail.path !== undefined && !mail.path.startsWith('/')) throw new Error('mail path must start with /');
      const link = mail.path !== undefined ? `${deps.publicUrl}${mail.path}` : undefined;
      const rendered = renderMail({ template: mail.template, firstName: mail.firstName, link, language: mail.language ?? undefined }, brand);
      const now = deps.clock();
      await insertMessage(tx, {
        toAddress: mail.to,
        template: mail.template,
        subject: rendered.subject,
        textBody: rendered.text,
        htmlBody: rendered.html,
        createdAt: now,
        nextAttemptAt: now,
      });
      deps.onQueued?.();
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;

/** What the mailer reads from the configuration. */
export type MailerConfig = Pick<Config, 'PUBLIC_URL' | 'BRAND_NAME' | 'BRAND_PRIMARY_COLOR'>;

/**
 * The mailer every entry point uses (the app, start-up's demo data, the operator CLI): links
 * from PUBLIC_URL, branding from BRAND_NAME and BRAND_PRIMARY_COLOR.
 */
export function mailerFromConfig(config: MailerConfig, clock: Clock, options: Pick<MailerDeps, 'onQueued'> = {}): Mailer {
  return createMailer({
    clock,
    publicUrl: config.PUBLIC_URL,
    brandName: config.BRAND_NAME,
    brandPrimaryColor: config.BRAND_PRIMARY_COLOR,
    ...(options.onQueued ? { onQueued: options.onQueued } : {}),
  });
}
