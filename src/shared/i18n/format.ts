import { LANGUAGE_LOCALES, type Language } from './languages';

/**
 * A count's wording by CLDR plural category (the categories ICU plural messages select on,
 * from `Intl.PluralRules`), `other` always given, `=0` for an exact zero. `#` stands for the
 * count in the language's number format, as in ICU MessageFormat.
 */
export type PluralForms = { readonly other: string; readonly '=0'?: string } & Partial<
  Readonly<Record<Exclude<Intl.LDMLPluralRule, 'other'>, string>>
>;

/** Numbers, counts, dates and times as one language writes them: the one formatting module. */
export interface Formatter {
  readonly language: Language;
  number(value: number): string;
  plural(count: number, forms: PluralForms): string;
  /** Short month, day, year, hour and minute, in the runtime's time zone. */
  dateTime(iso: string): string;
  /** Short month, day and year, in the runtime's time zone. */
  date(iso: string): string;
  /** Hours, minutes and seconds. */
  time(at: Date | number): string;
}

function createFormatter(language: Language): Formatter {
  const locale = LANGUAGE_LOCALES[language];
  // Built on first use: a screen that shows no number or date builds no format.
  let numbers: Intl.NumberFormat | undefined;
  let rules: Intl.PluralRules | undefined;
  const number = (value: number) => (numbers ??= new Intl.NumberFormat(locale)).format(value);
  // One format per option set, reused: an admin list formats a date per row.
  const dates = (options: Intl.DateTimeFormatOptions) => {
    let format: Intl.DateTimeFormat | undefined;
    return (at: Date | number | string) => (format ??= new Intl.DateTimeFormat(locale, options)).format(new Date(at));
  };
  return {
    language,
    number,
    plural: (count, forms) => {
      const form = (count === 0 ? forms['=0'] : undefined) ?? forms[(rules ??= new Intl.PluralRules(locale)).select(count)] ?? forms.other;
      return form.replaceAll('#', number(count));
    },
    dateTime: dates({ month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }),
    date: dates({ month: 'short', day: 'numeric', year: 'numeric' }),
    time: dates({ hour: '2-digit', minute: '2-digit', second: '2-digit' }),
  };
}

const formatters = new Map<Language, Formatter>();

/** The formatter for a language, built once. */
export function formatterFor(language: Language): Formatter {
  let formatter = formatters.get(language);
  if (!formatter) {
    formatter = createFormatter(language);
    formatters.set(language, formatter);
  }
  return formatter;
}
