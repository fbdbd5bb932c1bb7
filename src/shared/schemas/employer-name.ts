import { z } from 'zod';
import { auth } from '../messages/auth';
import { enrolment } from '../messages/enrolment';
import { hasNoInvisibleCharacters } from './text';

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;

/**
 * True when a name holds letters of more than one of Latin, Cyrillic and Greek: "Асme Health"
 * with a Cyrillic "А" looks exactly like "Acme Health" and is how a look-alike employer is
 * made. A name written wholly in one script (and digits, spaces, punctuation) is fine.
 */
export function mixesScripts(name: string): boolean {
  const scripts = [LATIN, CYRILLIC, GREEK].filter((script) => script.test(name)).length;
  return scripts > 1;
}

/**
 * An employer's name wherever someone types one (registration, an administrator adding an
 * employer): trimmed, 1-100 characters, no control or invisible characters, one script.
 */
export const EmployerNameSchema = z
  .string({ error: auth.validation.companyRequired })
  .trim()
  .min(1, auth.validation.companyRequired)
  .max(100, auth.validation.companyTooLong)
  .refine(hasNoInvisibleCharacters, auth.validation.invisibleCharacters)
  .refine((name) => !mixesScripts(name), enrolment.validation.employerMixedScripts);
