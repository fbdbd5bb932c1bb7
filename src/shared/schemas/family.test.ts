import { describe, expect, it } from 'vitest';
import { FamilyMemberInputSchema, familyMemberInputSchemaAt, latestDateOnEarth } from './family';

const valid = { firstName: 'Jamie', lastName: 'Rivera', dob: '2015-06-01', relationship: 'Child' };
/** The first message per field, as the server and the form show them. */
const fieldErrors = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const fields: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) fields[String(issue.path[0])] ??= issue.message;
  return fields;
};

describe('latestDateOnEarth', () => {
  it('is the UTC+14 calendar date', () => {
    expect(latestDateOnEarth(new Date('2026-03-02T09:59:59Z'))).toBe('2026-03-02');
    expect(latestDateOnEarth(new Date('2026-03-02T10:00:00Z'))).toBe('2026-03-03');
  });
});

describe('FamilyMemberInputSchema', () => {
  it('trims names and keeps the five relationships', () => {
    for (const relationship of ['Spouse', 'Child', 'Parent', 'Sibling', 'Other']) {
      const parsed = FamilyMemberInputSchema.parse({ ...valid, firstName: '  Jamie ', relationship });
      expect(parsed).toEqual({ ...valid, relationship });
    }
  });

  it('gives the spec messages for empty fields', () => {
    const result = FamilyMemberInputSchema.safeParse({ firstName: ' ', lastName: '', dob: '', relationship: '' });
    expect(fieldErrors(result)).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      dob: 'Date of birth is required',
      relationship: 'Relationship is required',
    });
  });

  it('refuses long names, unreal and too early dates, and unknown relationships', () => {
    const result = FamilyMemberInputSchema.safeParse({ firstName: 'x'.repeat(51), lastName: 'y', dob: '1899-12-31', relationship: 'Cousin' });
    expect(fieldErrors(result)).toEqual({
      firstName: 'Must be 50 characters or less',
      dob: 'Date of birth cannot be before 1900',
      relationship: 'Relationship must be Spouse, Child, Parent, Sibling or Other',
    });
    expect(fieldErrors(FamilyMemberInputSchema.safeParse({ ...valid, dob: '2015-02-30' }))).toEqual({ dob: 'Enter a real date (YYYY-MM-DD)' });
  });
});

describe('familyMemberInputSchemaAt', () => {
  const schema = familyMemberInputSchemaAt('2026-03-02');
  it('accepts today and refuses tomorrow, even when other fields are wrong too', () => {
    expect(schema.safeParse({ ...valid, dob: '2026-03-02' }).success).toBe(true);
    expect(fieldErrors(schema.safeParse({ ...valid, firstName: '', dob: '2026-03-03' }))).toEqual({
      firstName: 'First name is required',
      dob: 'Date of birth cannot be in the future',
    });
  });
});
