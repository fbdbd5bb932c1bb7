import type { Translation } from '../translation';
import type { offline as en } from '../offline';

/**
 * Installable and offline (issue 11): the offline banner and notes, the new-version prompt, the
 * menu's sign-out-and-remove. The Spanish translation.
 */
export const offline: Translation<typeof en> = {
  banner: 'No tiene conexión',
  bannerDetail: 'Se muestra lo que se guardó en este dispositivo.',
  /** `when`: the time the shown information was fetched, already formatted. */
  showingFrom: (when: string) => `Sin conexión — se muestra información guardada el ${when}`,
  nothingSaved:
    'No tiene conexión y esta información todavía no se ha guardado en este dispositivo. Se mostrará cuando vuelva a tener conexión.',
  updateAvailable: 'Hay una nueva versión disponible',
  updateDetail: 'Vuelva a cargar la página cuando esté listo. Lo que esté escribiendo se guarda hasta entonces.',
  reload: 'Volver a cargar',
  later: 'Más tarde',
  signOutAndRemove: 'Cerrar sesión y borrar mis datos de este dispositivo',
};
