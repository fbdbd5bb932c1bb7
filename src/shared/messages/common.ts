import { formatterFor } from '../i18n/format';

const f = formatterFor('en');

/** Strings used across screens. English is the spec's text, word for word. */
export const common = {
  home: 'Home',
  goBack: 'Go Back',
  close: 'Close',
  cancel: 'Cancel',
  save: 'Save',
  saving: 'Saving...',
  loading: 'Loading...',
  comingSoon: 'Coming Soon',
  underDevelopment: 'This feature is currently under development and will be available soon.',
  notFoundTitle: 'Page Not Found',
  notFoundHint: "We couldn't find a page at this address. The link may be old or mistyped:",
  notFoundBack: 'Return to Home',
  /** A screen that failed to show (it threw, or its code could not be fetched). */
  errorTitle: 'Something went wrong',
  tokenExpired: 'Token expired - redirecting to login',
  saveAuthFailed: 'Failed to save authentication state',
  useAuthOutside: 'useAuth must be used within an AuthProvider',
  genericError: 'Something went wrong. Please try again.',
  openMenu: 'Open menu',
  menu: {
    profile: 'Profile',
    help: 'Help',
    information: 'Information',
    adminAccess: 'Admin Access',
    signOut: 'Sign Out',
    /** The colour theme: the system's, or the member's choice for this device. */
    theme: 'Theme',
    themeSystem: 'Same as device',
    themeLight: 'Light',
    themeDark: 'Dark',
    /** The language switcher's name; the languages are named in themselves (LANGUAGE_NAMES). */
    language: 'Language',
  },
  toastRegion: 'Notifications',
  skipToContent: 'Skip to content',
  offlineNotSaved: "You're offline. Your changes were not saved.",
  /** The idle warning (WCAG 2.2.1) and what follows an idle sign-out. */
  idle: {
    title: (seconds: number) => f.plural(seconds, { one: "You'll be signed out in # second", other: "You'll be signed out in # seconds" }),
    body: 'For your privacy, we sign you out after 15 minutes without activity.',
    stay: 'Stay signed in',
    signOutNow: 'Sign out now',
    signedOut: 'You were signed out after 15 minutes of inactivity.',
    draftRestored: 'We restored what you had typed earlier.',
  },
  /** Idempotency-Key answers (server). */
  idempotency: {
    keyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
    keyReused: 'This Idempotency-Key was already used for a different request',
    inProgress: 'The same request is still being processed. Please try again shortly.',
  },
} as const;
