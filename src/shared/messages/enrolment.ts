import { formatterFor } from '../i18n/format';

const f = formatterFor('en');

/**
 * Eligibility rosters, enrolment modes and employer names: the admin's roster import, the
 * registration refusal, employer suggestions on the registration form.
 */
export const enrolment = {
  validation: {
    employerMixedScripts: 'Employer name must not mix Latin letters with Cyrillic or Greek letters',
    suggestTooShort: 'Type at least 3 characters',
    suggestTooLong: 'Must be 100 characters or less',
    importModeInvalid: 'Mode must be dry-run or import',
    enrolmentModeInvalid: 'Enrolment mode must be open or roster',
  },
  server: {
    /** Registration in roster mode: the same words whether the employer or the roster row is missing. */
    notListed: "We couldn't match these details to your employer's eligibility list. Check them against your enrolment letter.",
    employerExists: (name: string) => `An employer with this name already exists: ${name}`,
    csvContentType: 'Send the roster as a CSV file (Content-Type: text/csv)',
    uploadStalled: (seconds: number) =>
      f.plural(seconds, {
        one: 'The upload stopped: no data arrived for # second. Try again on a steadier connection.',
        other: 'The upload stopped: no data arrived for # seconds. Try again on a steadier connection.',
      }),
    uploadTooSlow: (minutes: number) =>
      f.plural(minutes, {
        one: 'The upload took longer than # minute. Try again on a faster connection.',
        other: 'The upload took longer than # minutes. Try again on a faster connection.',
      }),
    csvTooLarge: (megabytes: number) => `The file is larger than ${megabytes} MB`,
    csvEmpty: 'The file lists nobody: there are no rows under its header line',
    csvHeader: 'The first line must name the columns programme_id, first_name and last_name (email is optional)',
    csvHeaderDuplicate: (column: string) => `The column ${column} appears twice in the first line`,
    csvUnclosedQuote: (line: number) => `A quoted value opened on or before line ${line} is never closed`,
    csvLineTooLong: (line: number) => `Line ${line} is too long`,
    csvUnreadable: (line: number) => `The file could not be read as CSV at line ${line}`,
  },
  /** Why one row of a roster file was not imported. */
  rows: {
    field: (column: string, message: string) => `${column}: ${message}`,
    columnCount: (expected: number, found: number) =>
      `${f.plural(expected, { one: 'Expected # value', other: 'Expected # values' })}, found ${f.number(found)} (a value that contains a comma must be in double quotes)`,
    duplicate: (programmeId: string, line: number) => `Programme ID ${programmeId} already appears on line ${line}`,
    notUtf8: 'The row is not UTF-8 text (save the file as "CSV UTF-8")',
  },
  panel: {
    title: 'Enrolment',
    modeLabel: 'Only people on the roster can register',
    open: 'Open: anyone who names this employer can register.',
    roster: 'Roster: only people on the eligibility roster can register.',
    entries: (count: number) => f.plural(count, { one: '# person on the roster.', other: '# people on the roster.' }),
    emptyRosterWarning: 'The roster is empty: nobody can register until a roster is imported.',
    importRoster: 'Import roster',
    modeChangedToRoster: 'Registration now needs a roster match',
    modeChangedToOpen: 'Registration is open to anyone who names this employer',
    modeChangeFailed: 'Could not change the enrolment mode',
    loadError: 'Could not load the enrolment settings',
  },
  importDialog: {
    title: 'Import roster',
    description:
      'A CSV file with the columns programme_id, first_name and last_name, and optionally email. The file replaces the current roster; nobody is deleted.',
    fileLabel: 'Roster file (CSV)',
    fileHint: 'Up to 20 MB. The first line names the columns.',
    fileRequired: 'Choose a CSV file first',
    check: 'Check file',
    checking: 'Checking file...',
    checkedTitle: 'Dry run: nothing has changed yet',
    importedTitle: 'Roster imported',
    rows: 'Rows in the file',
    toAdd: 'To add',
    toUpdate: 'To update',
    unchanged: 'Unchanged',
    toRemove: 'To remove from the roster',
    added: 'Added',
    updated: 'Updated',
    removed: 'Removed from the roster',
    badRows: 'Bad rows (skipped)',
    badRowsTitle: (total: number, shown: number) =>
      total > shown ? `Bad rows: ${f.number(total)} (the first ${shown} are listed)` : `Bad rows: ${f.number(total)}`,
    line: (line: number) => `Line ${line}`,
    notListedTitle: (total: number, shown: number) =>
      total > shown
        ? `Registered members not on this roster: ${f.number(total)} (the first ${shown} are listed)`
        : `Registered members not on this roster: ${f.number(total)}`,
    notListedNote: 'They keep their accounts. Only new registrations are checked against the roster.',
    import: (count: number) => f.plural(count, { one: 'Import # row', other: 'Import # rows' }),
    progressLabel: 'Import progress',
    uploading: (percent: number) => `Uploading and checking: ${percent}%`,
    applying: 'Applying changes...',
    switchedToRoster: 'The employer is now in roster mode: only people on the roster can register.',
    chooseAnother: 'Choose another file',
    close: 'Done',
    cancel: 'Cancel',
    failed: 'The import failed',
    network: 'The file could not be sent. Check the connection and try again.',
  },
  addEmployer: {
    open: 'Add employer',
    title: 'Add employer',
    description: 'Create an employer before importing its roster.',
    name: 'Employer name',
    submit: 'Add employer',
    submitting: 'Adding...',
    created: (name: string) => `${name} added`,
  },
  suggestions: {
    label: 'Suggestions',
    count: (count: number) => f.plural(count, { one: '# suggestion. Use the arrow keys to choose.', other: '# suggestions. Use the arrow keys to choose.' }),
  },
} as const;
