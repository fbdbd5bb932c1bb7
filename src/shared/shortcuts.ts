import { paths } from './paths';

import type { Language } from './i18n/languages';

/**
 * A static service shortcut (spec section 3): used by Quick Access and the voice matcher.
 * `id` is the service's English name, the same in every language; `name` is what the page shows
 * and what a speaker may say.
 */
export type ServiceShortcut = { id: string; name: string; path: string; keywords: readonly string[] };

/**
 * The Health shortcuts (spec section 9: 10 entries), in the order the voice matcher tries
 * them. This is the voice list: Vital Scan points at its in-app route. Quick Access uses
 * `quickAccessHealthShortcuts`, where Vital Scan is the external site.
 */
export const healthShortcuts: readonly ServiceShortcut[] = [
  {
    id: 'Virtual Urgent Care',
    name: 'Virtual Urgent Care',
    path: paths.virtualUrgentCare,
    keywords: ['urgent care', 'urgent', 'virtual care', 'sick', 'emergency'],
  },
  {
    id: 'Virtual Primary Care',
    name: 'Virtual Primary Care',
    path: paths.virtualPrimaryCare,
    keywords: ['primary care', 'primary', 'doctor', 'physician', 'checkup'],
  },
  {
    id: 'In Person Care',
    name: 'In Person Care',
    path: paths.inPersonCare,
    keywords: ['in person', 'in-person', 'clinic', 'office visit'],
  },
  {
    id: 'Quest Select Labs',
    name: 'Quest Select Labs',
    path: paths.questSelectLabs,
    keywords: ['labs', 'lab', 'quest', 'blood test', 'lab test'],
  },
  {
    id: 'Virtual Therapy',
    name: 'Virtual Therapy',
    path: paths.virtualTherapy,
    keywords: ['therapy', 'therapist', 'counseling', 'mental health'],
  },
  {
    id: 'Care Navigator',
    name: 'Care Navigator',
    path: paths.careNavigator,
    keywords: ['navigator', 'care navigation', 'care coordinator'],
  },
  {
    id: 'Prescriptions',
    name: 'Prescriptions',
    path: paths.prescriptions,
    keywords: ['prescription', 'medication', 'medicine', 'pharmacy', 'refill'],
  },
  {
    id: 'SOAR',
    name: 'SOAR',
    path: paths.soar,
    keywords: ['soar', 'activities', 'health activities'],
  },
  {
    id: 'Vital Scan',
    name: 'Vital Scan',
    path: paths.vitalScan,
    keywords: ['vital', 'vitals', 'scan', 'vital signs', 'heart rate'],
  },
  {
    id: 'Plan of Care',
    name: 'Plan of Care',
    path: paths.planOfCare,
    keywords: ['care plan', 'plan of care', 'treatment plan'],
  },
];

/** The Wealth shortcuts (spec section 9: 2 entries). */
export const wealthShortcuts: readonly ServiceShortcut[] = [
  {
    id: 'Financial Wellness Center',
    name: 'Financial Wellness Center',
    path: paths.financialWellnessCenter,
    keywords: ['wellness center', 'retirement', 'pera', 'financial wellness', 'pension'],
  },
  {
    id: 'Financial Guidance System',
    name: 'Financial Guidance System',
    path: paths.financialGuidanceSystem,
    keywords: ['guidance', 'financial guidance', 'financial advice', 'budget', 'money'],
  },
];

/**
 * The Health list as Quick Access shows it: the same entries, with Vital Scan pointing at
 * the external vital-scan site from runtime configuration (spec section 9).
 */
export function quickAccessHealthShortcuts(vitalScanUrl: string): ServiceShortcut[] {
  return healthShortcuts.map((s) => (s.path === paths.vitalScan ? { ...s, path: vitalScanUrl } : s));
}

/** A shortcut whose path starts with http opens in a new tab (spec: Home, Quick Access). */
export function isExternalPath(path: string): boolean {
  return path.startsWith('http');
}

/**
 * What a Spanish speaker says for each service (voice navigation), by `id`. The English
 * keywords stay too: brand names ("SOAR", "Quest") are said the same way.
 */
const SPANISH_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  'Virtual Urgent Care': ['atención urgente', 'urgencia', 'urgente', 'atención virtual', 'enfermo', 'enferma', 'emergencia'],
  'Virtual Primary Care': ['atención primaria', 'médico', 'doctor', 'doctora', 'chequeo', 'médico de cabecera'],
  'In Person Care': ['en persona', 'clínica', 'consultorio'],
  'Quest Select Labs': ['laboratorio', 'laboratorios', 'análisis de sangre', 'examen de sangre', 'prueba de laboratorio'],
  'Virtual Therapy': ['terapia', 'terapeuta', 'consejería', 'salud mental', 'psicólogo', 'psicóloga'],
  'Care Navigator': ['guía de atención', 'coordinador de atención', 'navegador'],
  Prescriptions: ['receta', 'recetas', 'medicamento', 'medicamentos', 'medicina', 'farmacia', 'resurtir'],
  SOAR: ['actividades', 'actividades de salud'],
  'Vital Scan': ['signos vitales', 'vitales', 'escaneo', 'ritmo cardíaco', 'frecuencia cardíaca'],
  'Plan of Care': ['plan de atención', 'plan de cuidado', 'plan de tratamiento'],
  'Financial Wellness Center': ['bienestar financiero', 'jubilación', 'retiro', 'pensión', 'centro de bienestar'],
  'Financial Guidance System': ['orientación financiera', 'asesoría financiera', 'consejo financiero', 'presupuesto', 'dinero'],
};

/**
 * The shortcuts as a page in `language` shows and hears them: each named from the catalogue
 * (`names`, by id) and, in Spanish, heard by its Spanish words as well as its English ones.
 */
export function shortcutsIn(language: Language, list: readonly ServiceShortcut[], names: Readonly<Record<string, string>>): ServiceShortcut[] {
  return list.map((s) => ({
    ...s,
    name: names[s.id] ?? s.name,
    keywords: language === 'es' ? [...(SPANISH_KEYWORDS[s.id] ?? []), ...s.keywords] : s.keywords,
  }));
}
