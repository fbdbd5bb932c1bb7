/**
 * Email: subjects and bodies of every message the server sends (rendered by
 * src/server/modules/mail/templates.ts, plain text and HTML from the same strings), and the
 * console notice used when no SMTP server is configured.
 */
export const mail = {
  greeting: (firstName: string) => (firstName ? `Hello ${firstName},` : 'Hello,'),
  /** Shown under the button, before the same link written out. */
  linkFallback: 'If the button does not work, copy this address into your browser:',
  signature: (brand: string) => `The ${brand} team`,
  footer: (brand: string) =>
    `You are receiving this email because of your ${brand} account. This mailbox is not monitored; please do not reply.`,
  templates: {
    verify_email: {
      subject: 'Verify your email address',
      intro: (brand: string) => `Please confirm that this is your email address for ${brand}.`,
      action: 'Verify email address',
      validity: 'The link works once and is valid for 24 hours.',
      advice: (brand: string) => `If you did not create a ${brand} account, you can ignore this email.`,
    },
    reset_password: {
      subject: 'Reset your password',
      intro: (brand: string) => `We received a request to reset the password of your ${brand} account.`,
      action: 'Reset password',
      validity: 'The link works once and is valid for 1 hour.',
      advice: () => 'If you did not ask for this, you can ignore this email: your password stays as it is.',
    },
    password_changed: {
      subject: 'Your password was changed',
      intro: (brand: string) =>
        `The password of your ${brand} account was just changed, and your other signed-in devices were signed out.`,
      action: 'Reset your password',
      validity: '',
      advice: () =>
        "If this wasn't you, reset your password right away with \u201cForgot password?\u201d on the sign-in page, and tell your programme administrator.",
    },
    set_password: {
      subject: 'Set your administrator password',
      intro: (brand: string) => `An administrator account was created for you on ${brand}. Choose your password to start using it.`,
      action: 'Set your password',
      validity: 'The link works once.',
      advice: () => 'If you were not expecting this, do not use the link and tell your programme administrator.',
    },
    mfa_reset: {
      subject: 'Your two-step sign-in was reset',
      intro: (brand: string) =>
        `The two-step sign-in of your ${brand} account was reset by an operator. You will set up your authenticator app again the next time you use Admin Access.`,
      action: 'Sign in',
      validity: '',
      advice: () => "If you didn't ask for this, contact your programme administrator right away.",
    },
  },
  /**
   * Printed to the server's console (never the log) when SMTP_URL is not set. The link only
   * when stdout is a terminal: anywhere else (a service manager, a container) stdout is kept
   * with the logs, and a link is a bearer secret.
   */
  console: {
    heading: 'Email not sent (SMTP_URL is not set; it will not be sent later either):',
    to: 'To:',
    subject: 'Subject:',
    link: 'Link:',
    noLink: '(no link)',
    withheld: 'withheld: this output is not a terminal and may be kept with the logs. Set SMTP_URL to deliver mail.',
  },
} as const;
