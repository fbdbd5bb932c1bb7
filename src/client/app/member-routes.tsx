import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { paths } from '#shared/paths';
import { lazyPage } from './lazy-page';
import type { MemberPlaceholderName } from './member-placeholder';

/** A lazily loaded screen: each member screen is its own chunk. */
const page = <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType) => lazyPage(async () => ({ default: pick(await load()) }));

/**
 * A coming-soon screen through the one placeholder template; the template and the members
 * catalogue load with the screen, not with the sign-in screen.
 */
const loadPlaceholder = () => import('./member-placeholder');
const placeholder = (path: string, name: MemberPlaceholderName, backTo: string): RouteObject => ({
  path,
  ...lazyPage(loadPlaceholder, { name, backTo }),
});

/** Every member screen of spec section 2, under the layout with the bottom tab bar. */
export const memberRoutes: RouteObject[] = [
  {
    ...page(() => import('../features/members/components/member-layout'), (m) => m.MemberLayout),
    children: [
      { path: paths.home, ...lazyPage(() => import('./home-route')) },
      { path: paths.profile, ...page(() => import('../features/members/components/profile-page'), (m) => m.ProfilePage) },
      { path: paths.addFamily, ...page(() => import('../features/members/components/family-form-page'), (m) => m.AddFamilyPage) },
      { path: '/profile/family/:id/edit', ...page(() => import('../features/members/components/family-form-page'), (m) => m.EditFamilyPage) },
      { path: paths.security, ...page(() => import('../features/account/components/security-page'), (m) => m.SecurityPage) },
      { path: paths.idCard, ...page(() => import('../features/cards/components/id-card-page'), (m) => m.IdCardPage) },
      { path: paths.health, ...page(() => import('../features/health/components/health-page'), (m) => m.HealthPage) },
      { path: paths.healthActivities, ...page(() => import('../features/health/components/health-activities-page'), (m) => m.HealthActivitiesPage) },
      { path: paths.getCare, ...page(() => import('../features/health/components/get-care-page'), (m) => m.GetCarePage) },
      { path: paths.wealth, ...page(() => import('../features/wealth/components/wealth-page'), (m) => m.WealthPage) },
      { path: paths.information, ...page(() => import('../features/information/components/information-page'), (m) => m.InformationPage) },
      placeholder(paths.soar, 'soar', paths.healthActivities),
      placeholder(paths.vitalScan, 'vitalScan', paths.healthActivities),
      placeholder(paths.planOfCare, 'planOfCare', paths.healthActivities),
      placeholder(paths.virtualUrgentCare, 'virtualUrgentCare', paths.getCare),
      placeholder(paths.virtualPrimaryCare, 'virtualPrimaryCare', paths.getCare),
      placeholder(paths.inPersonCare, 'inPersonCare', paths.getCare),
      placeholder(paths.questSelectLabs, 'questSelectLabs', paths.getCare),
      placeholder(paths.virtualTherapy, 'virtualTherapy', paths.getCare),
      placeholder(paths.careNavigator, 'careNavigator', paths.getCare),
      placeholder(paths.prescriptions, 'prescriptions', paths.getCare),
      placeholder(paths.financialWellnessCenter, 'financialWellnessCenter', paths.wealth),
      placeholder(paths.financialGuidanceSystem, 'financialGuidanceSystem', paths.wealth),
      placeholder(paths.store, 'store', paths.home),
      placeholder(paths.terms, 'terms', paths.information),
      placeholder(paths.privacy, 'privacy', paths.information),
    ],
  },
];
