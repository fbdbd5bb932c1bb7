import { paths } from '#shared/paths';

export type TabId = 'vitalScan' | 'getCare' | 'idCard';

/**
 * Which tab is active for a path (spec: Bottom tab bar): Vital Scan for paths starting
 * /health/activities/vital, Get Care for /health/get-care and its subpaths, I.D. Card for
 * /id-card exactly.
 */
export function activeTab(pathname: string): TabId | null {
  if (pathname.startsWith('/health/activities/vital')) return 'vitalScan';
  if (pathname === paths.getCare || pathname.startsWith(`${paths.getCare}/`)) return 'getCare';
  if (pathname === paths.idCard) return 'idCard';
  return null;
}
