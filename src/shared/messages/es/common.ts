import { formatterFor } from '../../i18n/format';
import type { Translation } from '../translation';
import type { common as en } from '../common';

const f = formatterFor('es');

/** Strings used across screens: the Spanish translation. */
export const common: Translation<typeof en> = {
  home: 'Inicio',
  goBack: 'Volver',
  close: 'Cerrar',
  cancel: 'Cancelar',
  save: 'Guardar',
  saving: 'Guardando...',
  loading: 'Cargando...',
  comingSoon: 'Próximamente',
  underDevelopment: 'Esta función todavía no está lista. Estará disponible pronto.',
  notFoundTitle: 'No se encontró la página',
  notFoundHint: 'No encontramos una página en esta dirección. Puede que el enlace sea viejo o esté mal escrito:',
  notFoundBack: 'Volver a Inicio',
  /** A screen that failed to show (it threw, or its code could not be fetched). */
  errorTitle: 'Algo salió mal',
  tokenExpired: 'Su sesión expiró. Abriendo la página para iniciar sesión...',
  saveAuthFailed: 'No se pudo guardar el estado de la sesión',
  /** Developer-facing: stays in English. */
  useAuthOutside: 'useAuth must be used within an AuthProvider',
  genericError: 'Algo salió mal. Vuelva a intentarlo.',
  openMenu: 'Abrir menú',
  menu: {
    profile: 'Perfil',
    help: 'Ayuda',
    information: 'Información',
    adminAccess: 'Acceso de administrador',
    signOut: 'Cerrar sesión',
    /** The colour theme: the system's, or the member's choice for this device. */
    theme: 'Tema',
    themeSystem: 'Igual que el dispositivo',
    themeLight: 'Claro',
    themeDark: 'Oscuro',
    language: 'Idioma',
  },
  toastRegion: 'Notificaciones',
  skipToContent: 'Ir al contenido',
  offlineNotSaved: 'No tiene conexión. Sus cambios no se guardaron.',
  /** The idle warning (WCAG 2.2.1) and what follows an idle sign-out. */
  idle: {
    title: (seconds: number) =>
      f.plural(seconds, { one: 'Su sesión se cerrará en # segundo', other: 'Su sesión se cerrará en # segundos' }),
    body: `Para proteger su privacidad, cerramos su sesión después de ${f.number(15)} minutos sin actividad.`,
    stay: 'Mantener la sesión abierta',
    signOutNow: 'Cerrar sesión ahora',
    signedOut: `Cerramos su sesión después de ${f.number(15)} minutos sin actividad.`,
    draftRestored: 'Recuperamos lo que había escrito antes.',
  },
  /** Idempotency-Key answers (server). The header name stays as is. */
  idempotency: {
    keyInvalid: `Idempotency-Key debe tener de ${f.number(1)} a ${f.number(255)} caracteres ASCII visibles`,
    keyReused: 'Este Idempotency-Key ya se usó para otra solicitud',
    inProgress: 'La misma solicitud todavía se está procesando. Vuelva a intentarlo en un momento.',
  },
};
