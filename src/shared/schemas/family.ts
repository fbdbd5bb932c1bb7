import { z } from 'zod';
import { isRealIsoDate } from '../dates';
import { hasNoInvisibleCharacters } from './text';
import { pathId } from './ids';
import { messages } from '../messages/index';

const v = messages.members.family.validation;

/** Relationship choices (spec section 9), in the order the form offers them. */
export const relationships = ['Spouse', 'Child', 'Parent', 'Sibling', 'Other'] as const;
export const RelationshipSchema = z.enum(relationships);
export type Relationship = z.infer<typeof RelationshipSchema>;
export const isRelationship = (value: string): value is Relationship => (relationships as readonly string[]).includes(value);

/** The most family members one participant may have (product decisions). */
export const MAX_FAMILY_MEMBERS = 20;
/** The earliest date of birth accepted (product decisions: not before 1900). */
export const EARLIEST_DOB = '1900-01-01';

const name = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(50, v.nameTooLong)
    .refine(hasNoInvisibleCharacters, messages.auth.validation.invisibleCharacters);

/**
 * The latest calendar date anywhere on earth (UTC+14) at `now`: a date of birth after it is
 * in the future for everyone, whatever the member's time zone.
 */
export function latestDateOnEarth(now: Date): string {
  return new Date(now.getTime() + 14 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

const DobSchema = z
  .string({ error: v.dobRequired })
  .trim()
  .min(1, v.dobRequired)
  .refine(isRealIsoDate, v.dobInvalid)
  .refine((s) => s >= EARLIEST_DOB, v.dobTooEarly);

/**
 * A family member as the add/edit form and POST/PUT send it. "Not in the future" needs a
 * "today", which the server takes from its clock and the browser from its own; see
 * `familyMemberInputSchemaAt`.
 */
export const FamilyMemberInputSchema = z.object({
  firstName: name(v.firstNameRequired),
  lastName: name(v.lastNameRequired),
  dob: DobSchema,
  relationship: z
    .string({ error: v.relationshipRequired })
    .trim()
    .min(1, v.relationshipRequired)
    .pipe(z.enum(relationships, { error: v.relationshipInvalid })),
});
export type FamilyMemberInput = z.input<typeof FamilyMemberInputSchema>;
export type FamilyMemberValues = z.output<typeof FamilyMemberInputSchema>;

/** The input schema with the "not in the future" rule for a given latest allowed date (YYYY-MM-DD). */
export function familyMemberInputSchemaAt(latestDob: string) {
  return FamilyMemberInputSchema.extend({ dob: DobSchema.refine((s) => s <= latestDob, v.dobFuture) });
}

export const FamilyMemberSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  dob: z.string(),
  relationship: RelationshipSchema,
  createdAt: z.iso.datetime({ offset: true }),
});
export type FamilyMember = z.infer<typeof FamilyMemberSchema>;

export const FamilyMemberListSchema = z.object({ familyMembers: z.array(FamilyMemberSchema) });
export type FamilyMemberList = z.infer<typeof FamilyMemberListSchema>;

export const FamilyMemberParamsSchema = z.object({ id: pathId(messages.members.family.server.notFound) });

/** The signed-in member's own profile (GET /api/members/me/profile). */
export const MemberProfileSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  company: z.string(),
  lhmpId: z.string(),
  enrolledAt: z.iso.datetime({ offset: true }).nullable(),
  familyMemberCount: z.number().int(),
});
export type MemberProfile = z.infer<typeof MemberProfileSchema>;
