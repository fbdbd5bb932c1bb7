import { formatterFor } from '../../i18n/format';
import type { Translation } from '../translation';
import type { voice as en } from '../voice';

const f = formatterFor('es');

/**
 * Hands-free voice navigation strings, in Spanish: the Spanish translation of `../voice`.
 * The `errors` group is the spec's section 8 text; the rest labels the voice block on Home.
 */
export const voice: Translation<typeof en> = {
  title: 'Búsqueda por voz',
  /** The examples are what a Spanish speaker would say to reach Prescriptions, Virtual Therapy and SOAR. */
  description: 'Diga adónde quiere ir, por ejemplo, "recetas", "terapia virtual" o "SOAR".',
  notSupported: 'Voz no compatible',
  notSupportedHint: 'La navegación por voz necesita un navegador con reconocimiento de voz, como Chrome o Safari.',
  startSession: 'Empezar sesión de voz',
  consent:
    'La voz se activa por 60 segundos. Mientras mantiene presionado el botón del micrófono, lo que dice va al servicio de reconocimiento de voz de su navegador. Nosotros no guardamos nada de lo que dice.',
  killSwitch: 'Voz',
  listening: 'Escuchando... suelte para detener',
  micLabel: 'Mantenga presionado para hablar',
  micHint:
    'Mantenga presionado el micrófono, diga un servicio y luego suéltelo. Con un teclado, mantenga presionada la barra espaciadora o Enter.',
  micUnavailableLabel: 'Micrófono no disponible',
  sessionRemaining: (seconds: number) =>
    f.plural(seconds, { one: 'La sesión termina en # segundo', other: 'La sesión termina en # segundos' }),
  off: 'Empiece una sesión de voz para decir adónde quiere ir.',
  endedTimeout: 'Su sesión de voz terminó después de 60 segundos.',
  endedLowBattery: 'La voz se desactivó porque la batería bajó a menos del 20%.',
  pausedHidden: 'La voz está en pausa mientras esta pestaña está oculta.',
  pausedBattery: 'La voz no está disponible con 20% de batería o menos.',
  lowBatteryWarning: (percent: number) => `Batería baja (${f.number(percent)}%). La voz se desactiva al 20%.`,
  matched: (name: string) => `Abriendo ${name}...`,
  errors: {
    noSpeech: 'No se detectó ninguna voz. Hable más fuerte o más cerca del micrófono.',
    audioCapture: 'No se pudo acceder al micrófono. Revise los permisos del micrófono.',
    notAllowed: 'Se negó el permiso para usar el micrófono. Permita el acceso al micrófono y vuelva a intentarlo.',
    network: 'Hubo un error de red. Revise su conexión a internet.',
    failed: 'El reconocimiento de voz falló. Vuelva a intentarlo.',
    failedSafari: 'El reconocimiento de voz puede funcionar mejor en el navegador Chrome.',
    lowConfidence: (percent: number) =>
      `No le entendimos bien (${f.number(percent)}%). Hable claramente y vuelva a intentarlo.`,
    empty: 'No se detectó ninguna voz. Hable claramente.',
    processing: 'Error al procesar lo que dijo. Vuelva a intentarlo.',
    /** The suggestions are what a Spanish speaker would say: Virtual Care, Prescriptions, SOAR. */
    noMatch: (heard: string) =>
      `"${heard}" - No se encontró ningún servicio. Pruebe con: atención virtual, recetas, SOAR, etc.`,
    safariPermission: 'Se necesita permiso para usar el micrófono. Permita el acceso y vuelva a intentarlo.',
    startFailed: 'No se pudo iniciar el reconocimiento de voz. Vuelva a intentarlo.',
    initFailed: 'Las funciones de voz no están disponibles en este navegador.',
    audioSystem: 'Sistema de audio no disponible',
  },
  activity: {
    title: 'Actividad de voz',
    description: 'Se guarda solo en este dispositivo y nunca se envía al servidor. Últimos 50 eventos.',
    empty: 'Todavía no hay actividad de voz.',
    events: {
      session_started: 'Sesión de voz iniciada',
      session_ended_timeout: 'Sesión terminada (se acabó el tiempo)',
      session_ended_user_disabled: 'Sesión terminada (voz desactivada)',
      session_ended_low_battery: 'Sesión terminada (batería por debajo del 20%)',
      start_refused_battery: 'No se pudo empezar (batería al 20% o menos)',
      start_refused_hidden: 'No se pudo empezar (pestaña oculta)',
      auto_sleep: 'Pausa automática (pestaña oculta)',
      wake: 'La pestaña está visible otra vez',
      low_battery_warning: 'Aviso de batería baja',
      listening_started: 'Empezó a escuchar',
      listening_stopped: 'Dejó de escuchar',
      matched: 'Encontrado',
      rejected: 'No aceptado',
      error: 'Error de reconocimiento',
    },
    details: {
      empty: 'transcripción vacía',
      lowConfidence: (percent: number, heard: string) => `confianza baja ${f.number(percent)}%: "${heard}"`,
      noMatch: (heard: string) => `sin coincidencia: "${heard}"`,
      matched: (heard: string, name: string) => `"${heard}" -> ${name}`,
      failures: {
        start: 'no se pudo iniciar',
        init: 'no se pudo preparar',
        safari_permission: 'permiso del micrófono',
        audio_system: 'sistema de audio',
        processing: 'procesamiento',
      },
    },
  },
};
