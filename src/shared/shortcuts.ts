import { paths } from './paths';

/** A static service shortcut (spec section 3): used by Quick Access and the voice matcher. */
export type ServiceShortcut = { name: string; path: string; keywords: string[] };

/**
 * The Health shortcuts (spec section 9: 10 entries), in the order the voice matcher tries
 * them. This is the voice list: Vital Scan points at its in-app route. Quick Access uses
 * `quickAccessHealthShortcuts`, where Vital Scan is the external site.
 */
export const healthShortcuts: readonly ServiceShortcut[] = [
  {
    name: 'Virtual Urgent Care',
    path: paths.virtualUrgentCare,
    keywords: ['urgent care', 'urgent', 'virtual care', 'sick', 'emergency'],
  },
  {
    name: 'Virtual Primary Care',
    path: paths.virtualPrimaryCare,
    keywords: ['primary care', 'primary', 'doctor', 'physician', 'checkup'],
  },
  {
    name: 'In Person Care',
    path: paths.inPersonCare,
    keywords: ['in person', 'in-person', 'clinic', 'office visit'],
  },
  {
    name: 'Quest Select Labs',
    path: paths.questSelectLabs,
    keywords: ['labs', 'lab', 'quest', 'blood test', 'lab test'],
  },
  {
    name: 'Virtual Therapy',
    path: paths.virtualTherapy,
    keywords: ['therapy', 'therapist', 'counseling', 'mental health'],
  },
  {
    name: 'Care Navigator',
    path: paths.careNavigator,
    keywords: ['navigator', 'care navigation', 'care coordinator'],
  },
  {
    name: 'Prescriptions',
    path: paths.prescriptions,
    keywords: ['prescription', 'medication', 'medicine', 'pharmacy', 'refill'],
  },
  {
    name: 'SOAR',
    path: paths.soar,
    keywords: ['soar', 'activities', 'health activities'],
  },
  {
    name: 'Vital Scan',
    path: paths.vitalScan,
    keywords: ['vital', 'vitals', 'scan', 'vital signs', 'heart rate'],
  },
  {
    name: 'Plan of Care',
    path: paths.planOfCare,
    keywords: ['care plan', 'plan of care', 'treatment plan'],
  },
];

/** The Wealth shortcuts (spec section 9: 2 entries). */
export const wealthShortcuts: readonly ServiceShortcut[] = [
  {
    name: 'Financial Wellness Center',
    path: paths.financialWellnessCenter,
    keywords: ['wellness center', 'retirement', 'pera', 'financial wellness', 'pension'],
  },
  {
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
