import type { Translation } from '../translation';
import type { mail as en } from '../mail';

/**
 * Email, in Spanish: subjects and bodies of every message the server sends (rendered by
 * src/server/modules/mail/templates.ts, plain text and HTML from the same strings), and the
 * console notice used when no SMTP server is configured.
 */
export const mail: Translation<typeof en> = {
  greeting: (firstName: string) => (firstName ? `Hola, ${firstName}:` : 'Hola:'),
  /** Shown under the button, before the same link written out. */
  linkFallback: 'Si el botón no funciona, copie esta dirección en su navegador:',
  signature: (brand: string) => `El equipo de ${brand}`,
  footer: (brand: string) =>
    `Recibe este correo porque tiene una cuenta de ${brand}. Nadie revisa este buzón. Por favor, no responda a este mensaje.`,
  templates: {
    verify_email: {
      subject: 'Verifique su correo',
      intro: (brand: string) => `Por favor, confirme que este es su correo para ${brand}.`,
      action: 'Verificar correo',
      validity: 'El enlace funciona una sola vez y vence en 24 horas.',
      advice: (brand: string) => `Si no creó una cuenta de ${brand}, puede ignorar este correo.`,
    },
    reset_password: {
      subject: 'Restablezca su contraseña',
      intro: (brand: string) => `Recibimos una solicitud para restablecer la contraseña de su cuenta de ${brand}.`,
      action: 'Restablecer contraseña',
      validity: 'El enlace funciona una sola vez y vence en 1 hora.',
      advice: () => 'Si no pidió esto, puede ignorar este correo. Su contraseña no cambiará.',
    },
    password_changed: {
      subject: 'Se cambió su contraseña',
      intro: (brand: string) =>
        `Se acaba de cambiar la contraseña de su cuenta de ${brand}, y se cerró la sesión en sus otros dispositivos.`,
      action: 'Restablezca su contraseña',
      validity: '',
      advice: () =>
        'Si no fue usted, restablezca su contraseña ahora mismo con \u201c¿Olvidó su contraseña?\u201d en la página para iniciar sesión, y avísele al administrador de su programa.',
    },
    set_password: {
      subject: 'Cree su contraseña de administrador',
      intro: (brand: string) =>
        `Se creó una cuenta de administrador para usted en ${brand}. Elija su contraseña para empezar a usarla.`,
      action: 'Crear su contraseña',
      validity: 'El enlace funciona una sola vez.',
      advice: () => 'Si no esperaba este mensaje, no use el enlace y avísele al administrador de su programa.',
    },
    mfa_reset: {
      subject: 'Se restableció su verificación en dos pasos',
      intro: (brand: string) =>
        `Un operador restableció la verificación en dos pasos de su cuenta de ${brand}. La próxima vez que use el Acceso de administrador, tendrá que configurar de nuevo su app de autenticación.`,
      action: 'Iniciar sesión',
      validity: '',
      advice: () => 'Si no pidió esto, comuníquese de inmediato con el administrador de su programa.',
    },
  },
  /**
   * Printed to the server's console (never the log) when SMTP_URL is not set. The link only
   * when stdout is a terminal: anywhere else (a service manager, a container) stdout is kept
   * with the logs, and a link is a bearer secret. Operator-facing: kept in English.
   */
  console: {
    heading: 'Email not sent (SMTP_URL is not set; it will not be sent later either):',
    to: 'To:',
    subject: 'Subject:',
    link: 'Link:',
    noLink: '(no link)',
    withheld: 'withheld: this output is not a terminal and may be kept with the logs. Set SMTP_URL to deliver mail.',
  },
};
