import type { Translation } from '../translation';
import type { cardUi as en } from '../card-ui';

/**
 * Spanish translation of the ID card screens (issue 11): the card's two sides, share and
 * download, keeping the cards on the device, and /verify-card. The server's card messages are
 * `messages.cards`.
 */
export const cardUi: Translation<typeof en> = {
  page: {
    /** Intro under the title. */
    intro: 'Muestre esta tarjeta en la recepción o en la farmacia. Cada tarjeta tiene un frente y un reverso.',
    memberCardLabel: 'Tarjeta de identificación del miembro',
    dependantCardLabel: (name: string) => `Tarjeta de identificación de ${name}`,
    familyHeading: 'Familiares',
    loadFailed: 'No se pudieron cargar sus tarjetas. Vuelva a intentarlo.',
    retry: 'Volver a intentarlo',
    noCardsOffline:
      'No tiene conexión y todavía no hay tarjetas guardadas en este dispositivo. Abra esta página una vez cuando tenga conexión.',
    savedCardsFrom: (when: string) => `Se guardaron en este dispositivo el ${when}. Inicie sesión para actualizarlas.`,
    noSavedCards: 'No hay tarjetas guardadas en este dispositivo.',
    signIn: 'Iniciar sesión',
    verifyLink: 'Verificar una tarjeta (para recepción)',
  },
  card: {
    front: 'Frente',
    back: 'Reverso',
    showBack: 'Ver reverso',
    showFront: 'Ver frente',
    /** Announced after a turn. */
    showingBack: (name: string) => `Se muestra el reverso de la tarjeta de ${name}`,
    showingFront: (name: string) => `Se muestra el frente de la tarjeta de ${name}`,
    member: 'Miembro',
    name: 'Nombre',
    lhmpId: 'LHMP ID',
    employer: 'Empleador',
    planName: 'Plan',
    groupNumber: 'Grupo',
    rxBin: 'Rx BIN',
    rxPcn: 'Rx PCN',
    rxGroup: 'Grupo Rx',
    relationship: 'Parentesco',
    relationships: { Spouse: 'Cónyuge', Child: 'Hijo o hija', Parent: 'Padre o madre', Sibling: 'Hermano o hermana', Other: 'Otro' },
    dateOfBirth: 'Fecha de nacimiento',
    subscriber: 'Titular',
    memberServices: 'Servicios para miembros',
    nurseLine: 'Línea de enfermería',
    payerId: 'ID del pagador',
    call: (label: string, phone: string) => `${label}: llame al ${phone}`,
    qrAlt: (name: string) => `Código QR que la recepción escanea para verificar que la tarjeta de ${name} es auténtica`,
    qrFailed: 'No se pudo mostrar el código QR.',
    hipaa:
      'Aviso de HIPAA: esta tarjeta tiene información de salud protegida. No la comparta. Muéstrela solo a sus proveedores de atención médica.',
  },
  actions: {
    share: 'Compartir',
    shareTitle: (name: string) => `Tarjeta de identificación de ${name}`,
    shareFailed: 'No se pudo compartir la tarjeta. Pruebe con Descargar.',
    download: 'Descargar',
    downloading: 'Preparando…',
    downloadLabel: (name: string) => `Descargar la tarjeta de ${name} en PDF`,
    shareLabel: (name: string) => `Compartir la tarjeta de ${name}`,
    downloadFailed: 'No se pudo crear el PDF. Vuelva a intentarlo.',
    /** The downloaded file's name, without extension: ASCII letters, digits and hyphens only (accents dropped, so Pérez → perez). */
    fileName: (name: string) =>
      `tarjeta-de-id-${name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'tarjeta'}`,
  },
  keep: {
    label: 'Guardar mis tarjetas en este dispositivo',
    hint: 'Sus tarjetas se quedan en este teléfono después de cerrar sesión, para que pueda mostrarlas sin conexión y sin iniciar sesión. Cualquier persona que use este teléfono podría verlas.',
    on: 'Sus tarjetas están guardadas en este dispositivo.',
    off: 'Sus tarjetas se borrarán de este dispositivo cuando cierre sesión.',
    failed: 'No se pudieron guardar sus tarjetas en este dispositivo.',
  },
  verify: {
    title: 'Verificar una tarjeta de identificación',
    intro:
      'Escanee el código QR de la tarjeta de un miembro, o pegue el texto que contiene, para verificar que el programa emitió la tarjeta.',
    scan: 'Escanear con la cámara',
    stopScan: 'Detener la cámara',
    scanning: 'Apunte la cámara al código QR de la tarjeta.',
    cameraFailed: 'No se pudo encender la cámara. Pegue el código de la tarjeta.',
    cameraLabel: 'Vista de la cámara',
    pasteLabel: 'Código de la tarjeta',
    pasteHint: 'El texto que contiene el código QR. Empieza con WHC1.',
    check: 'Verificar tarjeta',
    checking: 'Verificando…',
    empty: 'Primero pegue el código de la tarjeta.',
    valid: (name: string, employer: string, issued: string) =>
      `Tarjeta válida de ${name}, ${employer}, emitida el ${issued}`,
    validDetails: (expires: string) => `La firma se verificó con la clave del programa. Válida hasta el ${expires}.`,
    invalid: 'No es válida',
    reasons: {
      malformed:
        'Este no es un código de tarjeta de identificación del programa. Escanéelo otra vez o revise que lo pegó completo.',
      signature: 'El programa no firmó la tarjeta, o la tarjeta se cambió después de emitirse.',
      expired:
        'La tarjeta está vencida. Pídale al miembro que abra su tarjeta cuando tenga conexión a internet para obtener una nueva.',
      noKey: 'No se pudo obtener la clave del programa. Conéctese a internet una vez y vuelva a intentarlo.',
    },
    plan: 'Plan',
    group: 'Grupo',
    relationship: 'Parentesco',
    lhmpId: 'LHMP ID',
  },
};
