import { describe, expect, it } from 'vitest';
import { paths } from '#shared/paths';
import { activeTab } from './tab-bar-rules';

describe('activeTab', () => {
  it.each([
    [paths.vitalScan, 'vitalScan'],
    ['/health/activities/vital', 'vitalScan'],
    ['/health/activities/vitals-history', 'vitalScan'],
    [paths.getCare, 'getCare'],
    [paths.virtualUrgentCare, 'getCare'],
    [paths.prescriptions, 'getCare'],
    [paths.idCard, 'idCard'],
  ])('%s -> %s', (path, tab) => {
    expect(activeTab(path)).toBe(tab);
  });

  it.each([
    paths.home,
    paths.health,
    paths.healthActivities,
    paths.soar,
    paths.planOfCare,
    '/health/get-careers',
    '/id-card/extra',
    '/id-cards',
    paths.profile,
    paths.wealth,
  ])('%s has no active tab', (path) => {
    expect(activeTab(path)).toBeNull();
  });
});
