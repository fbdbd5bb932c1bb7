import type { Translation } from '../translation';
import type { server as en } from '../server';

/** The server's own refusals, in Spanish. */
export const server: Translation<typeof en> = {
  internal: 'Error interno del servidor',
  unavailable: 'El servicio no está disponible por el momento. Vuelva a intentarlo en unos minutos.',
  payloadTooLarge: 'Lo que envió es demasiado grande',
  unsupportedMediaType: 'Este tipo de contenido no se acepta',
  malformedBody: 'Lo que envió no tiene el formato correcto',
  badRequest: 'Solicitud no válida',
  invalidValue: 'Valor no válido',
  invalidRequest: 'Solicitud no válida',
  clientClosed: 'Se cerró la conexión antes de terminar',
  urlTooLong: 'La dirección es demasiado larga',
  malformedUrl: 'La dirección no tiene el formato correcto',
};
