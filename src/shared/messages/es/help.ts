import type { Translation } from '../translation';
import type { help as en } from '../help';

/** Header Help dialog (spec section 2: Shared page header and menu): the Spanish translation. */
export const help: Translation<typeof en> = {
  title: 'Ayuda',
  description: 'Videos cortos que le ayudan a usar bien su programa.',
  videos: {
    gettingStarted: 'Primeros pasos',
    healthActivities: 'Actividades de salud: SOAR, Vital Scan y Plan de atención',
    wealthCenter: 'Centro de finanzas',
  },
  placeholderVideo: 'Este video estará listo pronto.',
};
