import { formatterFor } from '../../i18n/format';
import type { Translation } from '../translation';
import type { enrolment as en } from '../enrolment';

const f = formatterFor('es');

/**
 * Spanish translation of eligibility rosters, enrolment modes and employer names: the admin's
 * roster import, the registration refusal, employer suggestions on the registration form.
 */
export const enrolment: Translation<typeof en> = {
  /** Mode values (dry-run, import, open, roster) stay as the API spells them. */
  validation: {
    employerMixedScripts: 'El nombre del empleador no debe mezclar letras latinas con letras cirílicas o griegas',
    suggestTooShort: 'Escriba al menos 3 caracteres',
    suggestTooLong: 'Debe tener 100 caracteres o menos',
    importModeInvalid: 'El modo debe ser dry-run o import',
    enrolmentModeInvalid: 'El modo de inscripción debe ser open o roster',
  },
  server: {
    /** Registration in roster mode: the same words whether the employer or the roster row is missing. */
    notListed:
      'No pudimos encontrar estos datos en la lista de elegibilidad de su empleador. Compárelos con su carta de inscripción.',
    employerExists: (name: string) => `Ya existe un empleador con este nombre: ${name}`,
    csvContentType: 'Envíe la lista de elegibilidad como archivo CSV (Content-Type: text/csv)',
    uploadStalled: (seconds: number) =>
      f.plural(seconds, {
        one: 'La carga se detuvo: no llegaron datos durante # segundo. Vuelva a intentarlo con una conexión más estable.',
        other: 'La carga se detuvo: no llegaron datos durante # segundos. Vuelva a intentarlo con una conexión más estable.',
      }),
    uploadTooSlow: (minutes: number) =>
      f.plural(minutes, {
        one: 'La carga tardó más de # minuto. Vuelva a intentarlo con una conexión más rápida.',
        other: 'La carga tardó más de # minutos. Vuelva a intentarlo con una conexión más rápida.',
      }),
    csvTooLarge: (megabytes: number) => `El archivo tiene más de ${f.number(megabytes)} MB`,
    csvEmpty: 'El archivo no incluye a nadie: no hay filas debajo de la línea de encabezado',
    csvHeader: 'La primera línea debe nombrar las columnas programme_id, first_name y last_name (la columna email es opcional)',
    csvHeaderDuplicate: (column: string) => `La columna ${column} aparece dos veces en la primera línea`,
    csvUnclosedQuote: (line: number) => `Un valor entre comillas que empieza en la línea ${f.number(line)} o antes nunca se cierra`,
    csvLineTooLong: (line: number) => `La línea ${f.number(line)} es demasiado larga`,
    csvUnreadable: (line: number) => `No se pudo leer el archivo como CSV en la línea ${f.number(line)}`,
  },
  /** Why one row of a roster file was not imported. */
  rows: {
    field: (column: string, message: string) => `${column}: ${message}`,
    columnCount: (expected: number, found: number) =>
      `${f.plural(expected, { one: 'Se esperaba # valor', other: 'Se esperaban # valores' })}, pero hay ${f.number(found)} (un valor que contiene una coma debe ir entre comillas dobles)`,
    duplicate: (programmeId: string, line: number) =>
      `El ID del programa ${programmeId} ya aparece en la línea ${f.number(line)}`,
    notUtf8: 'La fila no es texto UTF-8 (guarde el archivo como "CSV UTF-8")',
  },
  panel: {
    title: 'Inscripción',
    modeLabel: 'Solo las personas en la lista de elegibilidad pueden registrarse',
    open: 'Abierta: cualquier persona que indique este empleador puede registrarse.',
    roster: 'Lista de elegibilidad: solo las personas en la lista de elegibilidad pueden registrarse.',
    entries: (count: number) =>
      f.plural(count, {
        one: '# persona en la lista de elegibilidad.',
        other: '# personas en la lista de elegibilidad.',
      }),
    emptyRosterWarning: 'La lista de elegibilidad está vacía: nadie puede registrarse hasta que se importe una lista.',
    importRoster: 'Importar lista de elegibilidad',
    modeChangedToRoster: 'Ahora, para registrarse, hay que estar en la lista de elegibilidad',
    modeChangedToOpen: 'El registro está abierto a cualquier persona que indique este empleador',
    modeChangeFailed: 'No se pudo cambiar el modo de inscripción',
    loadError: 'No se pudo cargar la configuración de inscripción',
  },
  importDialog: {
    title: 'Importar lista de elegibilidad',
    description:
      'Un archivo CSV con las columnas programme_id, first_name y last_name, y si lo desea, email. El archivo reemplaza la lista de elegibilidad actual; no se elimina a nadie.',
    fileLabel: 'Archivo de la lista de elegibilidad (CSV)',
    fileHint: 'Hasta 20 MB. La primera línea nombra las columnas.',
    fileRequired: 'Primero elija un archivo CSV',
    check: 'Revisar archivo',
    checking: 'Revisando archivo...',
    checkedTitle: 'Prueba: todavía no ha cambiado nada',
    importedTitle: 'Lista de elegibilidad importada',
    rows: 'Filas en el archivo',
    toAdd: 'Para agregar',
    toUpdate: 'Para actualizar',
    unchanged: 'Sin cambios',
    toRemove: 'Para quitar de la lista de elegibilidad',
    added: 'Agregados',
    updated: 'Actualizados',
    removed: 'Quitados de la lista de elegibilidad',
    badRows: 'Filas con errores (omitidas)',
    badRowsTitle: (total: number, shown: number) =>
      total > shown
        ? `Filas con errores: ${f.number(total)} ${f.plural(shown, { one: '(se muestra la primera)', other: '(se muestran las primeras #)' })}`
        : `Filas con errores: ${f.number(total)}`,
    line: (line: number) => `Línea ${f.number(line)}`,
    notListedTitle: (total: number, shown: number) =>
      total > shown
        ? `Miembros registrados que no están en esta lista: ${f.number(total)} ${f.plural(shown, { one: '(se muestra el primero)', other: '(se muestran los primeros #)' })}`
        : `Miembros registrados que no están en esta lista: ${f.number(total)}`,
    notListedNote: 'Conservan sus cuentas. Solo los registros nuevos se comparan con la lista de elegibilidad.',
    import: (count: number) => f.plural(count, { one: 'Importar # fila', other: 'Importar # filas' }),
    progressLabel: 'Progreso de la importación',
    uploading: (percent: number) => `Subiendo y revisando: ${f.number(percent)}%`,
    applying: 'Aplicando cambios...',
    switchedToRoster:
      'El empleador ahora está en modo de lista de elegibilidad: solo las personas en la lista pueden registrarse.',
    chooseAnother: 'Elegir otro archivo',
    close: 'Listo',
    cancel: 'Cancelar',
    failed: 'No se pudo completar la importación',
    network: 'No se pudo enviar el archivo. Revise la conexión y vuelva a intentarlo.',
  },
  addEmployer: {
    open: 'Agregar empleador',
    title: 'Agregar empleador',
    description: 'Cree un empleador antes de importar su lista de elegibilidad.',
    name: 'Nombre del empleador',
    submit: 'Agregar empleador',
    submitting: 'Agregando...',
    created: (name: string) => `Se agregó ${name}`,
  },
  suggestions: {
    label: 'Sugerencias',
    count: (count: number) =>
      f.plural(count, {
        one: '# sugerencia. Use las flechas del teclado para elegir.',
        other: '# sugerencias. Use las flechas del teclado para elegir.',
      }),
  },
};
