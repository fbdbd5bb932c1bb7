import type { Translation } from '../translation';
import type { signIn as en } from '../sign-in';

/**
 * The sign-in screen's strings, in Spanish: a module of their own, so /login's first download
 * carries these and not the rest of the auth catalogue (registration, admin access, server sentences).
 */
export const signIn: Translation<typeof en> = {
  title: 'Iniciar sesión',
  subtitle: 'Hola de nuevo. Inicie sesión para usar sus servicios de salud y financieros.',
  email: 'Correo electrónico',
  password: 'Contraseña',
  submit: 'Iniciar sesión',
  submitting: 'Iniciando sesión...',
  toRegister: '¿No tiene una cuenta? Cree una',
  /** The link to /forgot-password. Here, not in the account catalogue, which /login does not load. */
  forgotPassword: '¿Olvidó su contraseña?',
  failed: 'No se pudo iniciar sesión',
  failedRetry: 'No se pudo iniciar sesión. Vuelva a intentarlo.',
};
