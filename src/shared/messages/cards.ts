import { formatterFor } from '../i18n/format';

const f = formatterFor('en');

/** ID cards (issue 11): the employer's card details, their admin editor, and card checks. */
export const cards = {
  /** Labels of the employer's card fields, as the admin form and the card show them. */
  fields: {
    planName: 'Plan name',
    groupNumber: 'Group number',
    rxBin: 'Rx BIN',
    rxPcn: 'Rx PCN',
    rxGroup: 'Rx group',
    memberServicesPhone: 'Member services phone',
    nurseLinePhone: 'Nurse line phone',
    payerId: 'Payer ID',
    backNote: 'Note on the back of the card',
  },
  validation: {
    tooLong: (max: number) => f.plural(max, { one: 'Must be # character or fewer', other: 'Must be # characters or fewer' }),
    rxBin: 'Rx BIN is 6 digits',
    phone: 'Enter a phone number of 7 to 15 digits (digits, spaces, +, -, brackets and dots)',
    invisibleCharacters: 'Must not contain control or invisible characters',
  },
  /** The "Card details" section of an employer's admin page. */
  admin: {
    title: 'Card details',
    description: 'Printed on the ID card of every member of this employer and of their family members. Empty fields are left off the card.',
    hints: {
      rxBin: '6 digits',
      backNote: 'Up to 300 characters, shown on the back of the card.',
    },
    save: 'Save card details',
    saving: 'Saving...',
    saved: 'Card details saved',
    lastUpdated: (when: string) => `Last updated ${when}`,
    neverUpdated: 'No card details yet.',
    loadError: (message: string) => `Error loading card details: ${message}`,
    saveFailed: 'The card details could not be saved. Please try again.',
  },
  server: {
    employerNotFound: 'Employer not found',
    memberNotFound: 'Member not found',
    verifyRateLimited: 'Too many card checks. Please wait a minute and try again.',
  },
} as const;
