import { describe, expect, it } from 'vitest';
import { EmployerNameSchema, mixesScripts } from './employer-name';

describe('mixesScripts', () => {
  it.each([
    'Acme Health Co',
    'Ærø Fisk ApS',
    'Société Générale',
    'Газпром',
    'Αθήνα Υγεία',
    'Müller & Söhne GmbH',
    '3M',
    '株式会社 Acme',
    'Acme — Health, Inc.',
    'µ Micro Systems',
  ])('accepts %s (one script among Latin, Cyrillic, Greek)', (name) => {
    expect(mixesScripts(name)).toBe(false);
  });

  it.each([
    ['Аcme Health', 'Cyrillic А (U+0410) in a Latin name'],
    ['Acme Неalth', 'Cyrillic Н and е'],
    ['Acme Ηealth', 'Greek Η (U+0397)'],
    ['Αcme', 'Greek Α (U+0391) then Latin'],
    ['Газпрoм', 'Latin o in a Cyrillic name'],
    ['Αθήνα Газ', 'Greek and Cyrillic'],
  ])('refuses %s (%s)', (name) => {
    expect(mixesScripts(name)).toBe(true);
  });
});

describe('EmployerNameSchema', () => {
  it('trims and accepts a plain name', () => {
    expect(EmployerNameSchema.parse('  Acme Health Co ')).toBe('Acme Health Co');
  });

  it('names the mixed-script problem in its message', () => {
    const result = EmployerNameSchema.safeParse('Аcme Health');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Employer name must not mix Latin letters with Cyrillic or Greek letters');
  });

  it('keeps the registration messages for empty, long and invisible', () => {
    expect(EmployerNameSchema.safeParse('  ').error?.issues[0]?.message).toBe('Company is required');
    expect(EmployerNameSchema.safeParse('x'.repeat(101)).error?.issues[0]?.message).toBe('Company must be 100 characters or less');
    expect(EmployerNameSchema.safeParse('Acme\u202e Co').error?.issues[0]?.message).toBe('Must not contain control or invisible characters');
  });
});
