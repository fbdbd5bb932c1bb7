import { formatterFor } from '../../i18n/format';
import type { Translation } from '../translation';
import type { mfa as en } from '../mfa';

const f = formatterFor('es');

/** Two-step sign-in (TOTP) and the admin step-up's second factor, in Spanish. */
export const mfa: Translation<typeof en> = {
  validation: {
    codeRequired: 'Ingrese el código de su app de autenticación',
    codeTooLong: 'Ingrese un código de 6 dígitos o un código de recuperación',
    challengeMissing: 'Se acabó el tiempo para iniciar sesión. Vuelva a iniciar sesión.',
    passwordRequired: 'Ingrese su contraseña',
  },
  server: {
    invalidCode:
      'Ese código no es válido. Ingrese el código actual de su app de autenticación, o un código de recuperación que no haya usado.',
    challengeExpired: 'Se acabó el tiempo para iniciar sesión. Vuelva a iniciar sesión.',
    passwordWrong: 'Su contraseña no es correcta',
    alreadyEnabled: 'La verificación en dos pasos ya está activada.',
    notEnabled: 'La verificación en dos pasos no está activada.',
    setupNotStarted: 'Empiece la configuración otra vez. La clave que se mostró ya no es válida.',
    adminMustKeep:
      'Los administradores deben mantener activada la verificación en dos pasos. Si perdió su dispositivo, pídale a un operador que la restablezca.',
  },
  /** Shared by the Admin Access dialog, the sign-in page and Security. */
  factor: {
    scanTitle: 'Configure su app de autenticación',
    scanBody:
      'Escanee este código QR con una app de autenticación (como Google Authenticator, Microsoft Authenticator o 1Password). Luego, la app le mostrará un código nuevo de 6 dígitos cada 30 segundos.',
    qrAlt: 'Código QR para su app de autenticación',
    qrLoading: 'Cargando el código QR...',
    qrFailed: 'No se pudo mostrar el código QR. Ingrese la clave de configuración en su app.',
    setupKey: 'Clave de configuración',
    setupKeyHint: '¿No puede escanear? Agregue una cuenta a mano en la app y escriba esta clave.',
    code: 'Código de autenticación',
    codeHint: 'Ingrese el código de 6 dígitos de su app de autenticación.',
    codeHintWithRecovery: 'Ingrese el código de 6 dígitos de su app de autenticación, o uno de sus códigos de recuperación.',
    recoveryHint: 'Ingrese uno de sus códigos de recuperación (por ejemplo, abcde-fghjk). Cada uno funciona una sola vez.',
    useRecovery: 'Usar un código de recuperación',
    useApp: 'Usar su app de autenticación',
    verify: 'Verificar',
    verifying: 'Verificando...',
    recoveryTitle: 'Guarde sus códigos de recuperación',
    recoveryBody:
      'Si pierde su teléfono, cada uno de estos códigos le permite entrar una vez sin el código de autenticación. Guárdelos en un lugar seguro. Solo se muestran esta vez.',
    recoveryListLabel: 'Códigos de recuperación',
    copy: 'Copiar',
    copied: 'Se copiaron los códigos de recuperación',
    copyFailed: 'Aquí no se puede copiar. Seleccione los códigos o use Descargar.',
    download: 'Descargar',
    downloadName: 'codigos-de-recuperacion.txt',
    downloadHeading: (brand: string, email: string) =>
      `Códigos de recuperación de ${brand} para ${email}\nCada código funciona una sola vez. Guarde este archivo en un lugar seguro.\n`,
  },
  adminAccess: {
    requiredBody: 'Ingrese el código de su app de autenticación para continuar.',
    continueToDashboard: 'Continuar al panel',
    startOver: 'Volver a empezar',
  },
  signIn: {
    title: 'Verificación en dos pasos',
    body: 'Su cuenta está protegida con la verificación en dos pasos.',
    startOver: 'Volver al inicio de sesión',
  },
  security: {
    title: 'Verificación en dos pasos',
    intro:
      'Además de su contraseña, se le pedirá un código de una app de autenticación en su teléfono. Así, nadie puede entrar a su cuenta solo con una contraseña robada.',
    on: 'Activada',
    off: 'Desactivada',
    /** `since` may be empty when the start date is unknown. */
    statusOn: (since: string) =>
      since ? `La verificación en dos pasos está activada desde el ${since}.` : 'La verificación en dos pasos está activada.',
    statusOff: 'La verificación en dos pasos está desactivada.',
    recoveryLeft: (n: number) =>
      f.plural(n, { one: 'Le queda # código de recuperación.', other: 'Le quedan # códigos de recuperación.' }),
    turnOn: 'Activar la verificación en dos pasos',
    turnOff: 'Desactivar la verificación en dos pasos',
    password: 'Contraseña',
    passwordHint: 'Confirme su contraseña para continuar.',
    continue: 'Continuar',
    cancel: 'Cancelar',
    done: 'Listo',
    turnedOn:
      'La verificación en dos pasos está activada. Se cerró la sesión en sus otros dispositivos. La próxima vez que inicie sesión, se le pedirá un código.',
    turnedOff: 'La verificación en dos pasos está desactivada.',
    offConfirm:
      'Para desactivar la verificación en dos pasos, ingrese su contraseña y un código de su app de autenticación (o un código de recuperación).',
    adminNote: 'Como administrador, usted debe mantener activada la verificación en dos pasos.',
    loadFailed: 'No se pudo cargar la configuración de la verificación en dos pasos.',
    failed: 'No funcionó. Vuelva a intentarlo.',
  },
};
