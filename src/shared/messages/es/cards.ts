import { formatterFor } from '../../i18n/format';
import type { Translation } from '../translation';
import type { cards as en } from '../cards';

const f = formatterFor('es');

/** Spanish translation of ID cards (issue 11): the employer's card details, their admin editor, and card checks. */
export const cards: Translation<typeof en> = {
  /** Labels of the employer's card fields, as the admin form and the card show them. */
  fields: {
    planName: 'Nombre del plan',
    groupNumber: 'Número de grupo',
    rxBin: 'Rx BIN',
    rxPcn: 'Rx PCN',
    rxGroup: 'Grupo Rx',
    memberServicesPhone: 'Teléfono de Servicios para miembros',
    nurseLinePhone: 'Teléfono de la línea de enfermería',
    payerId: 'ID del pagador',
    backNote: 'Nota en el reverso de la tarjeta',
  },
  validation: {
    tooLong: (max: number) => f.plural(max, { one: 'Debe tener # carácter o menos', other: 'Debe tener # caracteres o menos' }),
    rxBin: 'El Rx BIN tiene 6 dígitos',
    phone: 'Ingrese un número de teléfono de 7 a 15 dígitos (dígitos, espacios, +, -, paréntesis y puntos)',
    invisibleCharacters: 'No puede contener caracteres de control ni caracteres invisibles',
  },
  /** The "Card details" section of an employer's admin page. */
  admin: {
    title: 'Datos de la tarjeta',
    description:
      'Se imprimen en la tarjeta de identificación de cada miembro de este empleador y de sus familiares. Los campos vacíos no aparecen en la tarjeta.',
    hints: {
      rxBin: '6 dígitos',
      backNote: 'Hasta 300 caracteres. Se muestra en el reverso de la tarjeta.',
    },
    save: 'Guardar datos de la tarjeta',
    saving: 'Guardando...',
    saved: 'Datos de la tarjeta guardados',
    lastUpdated: (when: string) => `Última actualización: ${when}`,
    neverUpdated: 'Todavía no hay datos de la tarjeta.',
    loadError: (message: string) => `Error al cargar los datos de la tarjeta: ${message}`,
    saveFailed: 'No se pudieron guardar los datos de la tarjeta. Vuelva a intentarlo.',
  },
  server: {
    employerNotFound: 'No se encontró el empleador',
    memberNotFound: 'No se encontró al miembro',
    verifyRateLimited: 'Demasiadas verificaciones de tarjetas. Espere un minuto y vuelva a intentarlo.',
  },
};
