/**
 * Every client route in one table (spec section 2). Links, redirects, the tab bar,
 * the shortcuts and the voice matcher all read from here.
 */
export const paths = {
  root: '/',
  login: '/login',
  register: '/register',
  start: '/start',
  home: '/home',
  profile: '/profile',
  addFamily: '/profile/add-family',
  editFamily: (id: string) => `/profile/family/${encodeURIComponent(id)}/edit`,
  health: '/health',
  healthActivities: '/health/activities',
  soar: '/health/activities/soar',
  vitalScan: '/health/activities/vital-scan',
  planOfCare: '/health/activities/plan-of-care',
  getCare: '/health/get-care',
  virtualUrgentCare: '/health/get-care/virtual-urgent-care',
  virtualPrimaryCare: '/health/get-care/virtual-primary-care',
  inPersonCare: '/health/get-care/in-person-care',
  questSelectLabs: '/health/get-care/quest-select-labs',
  virtualTherapy: '/health/get-care/virtual-therapy',
  careNavigator: '/health/get-care/care-navigator',
  prescriptions: '/health/get-care/prescriptions',
  wealth: '/wealth',
  financialWellnessCenter: '/wealth/pera-admin-financial-wellness-center',
  financialGuidanceSystem: '/wealth/financial-guidance-system',
  store: '/store',
  idCard: '/id-card',
  information: '/information',
  terms: '/information/terms',
  privacy: '/information/privacy',
  admin: '/admin',
  adminLogin: '/admin/login',
  adminEmployers: '/admin/employers',
  adminEmployer: (companyId: string) => `/admin/employers/${encodeURIComponent(companyId)}`,
  adminEmployee: (userId: string) => `/admin/employees/${encodeURIComponent(userId)}`,
  adminPopups: '/admin/popups',
} as const;

/** Routes reachable without signing in (spec: Route guard). */
export const publicPaths: readonly string[] = [paths.root, paths.login, paths.register];
