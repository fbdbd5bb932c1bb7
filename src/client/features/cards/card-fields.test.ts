import { describe, expect, it } from 'vitest';
import type { EmployerCardDetails, IdCard } from '#shared/schemas/cards';
import { cardSides, formatCardDate, telHref } from './card-fields';

const noDetails: EmployerCardDetails = {
  planName: null,
  groupNumber: null,
  rxBin: null,
  rxPcn: null,
  rxGroup: null,
  memberServicesPhone: null,
  nurseLinePhone: null,
  payerId: null,
  backNote: null,
};
const allDetails: EmployerCardDetails = {
  planName: 'Gold PPO',
  groupNumber: 'GRP-100',
  rxBin: '610014',
  rxPcn: 'MEDDPRIME',
  rxGroup: 'RX42',
  memberServicesPhone: '+1 (800) 555-0100',
  nurseLinePhone: '800.555.0199',
  payerId: '87726',
  backNote: 'Present this card at every visit.',
};
const memberCard: IdCard = {
  id: 'member',
  kind: 'member',
  name: 'Riley Tester',
  relationship: null,
  dateOfBirth: null,
  subscriberName: 'Riley Tester',
  employer: 'Acme Health Co',
  lhmpId: 'LQ00001',
  issuedAt: '2026-11-23T10:00:00.000Z',
  expiresAt: '2026-12-23T10:00:00.000Z',
  token: 'WHC1.x.y',
};
const childCard: IdCard = { ...memberCard, id: 'f1', kind: 'dependant', name: 'Sam Tester', relationship: 'Child', dateOfBirth: '2015-06-01' };

const keys = (fields: { key: string }[]) => fields.map((f) => f.key);

describe('cardSides', () => {
  it('a member card with no employer details shows only LHMP ID and employer, and the HIPAA notice', () => {
    const sides = cardSides(memberCard, noDetails);
    expect(sides.name).toBe('Riley Tester');
    expect(keys(sides.front)).toEqual(['lhmpId', 'employer']);
    expect(sides.rx).toEqual([]);
    expect(sides.back).toEqual([]);
    expect(sides.backNote).toBeNull();
    expect(sides.hipaa).toMatch(/HIPAA/);
  });

  it('every employer field, in card order, phones as tel: links', () => {
    const sides = cardSides(memberCard, allDetails);
    expect(keys(sides.front)).toEqual(['lhmpId', 'employer', 'planName', 'groupNumber']);
    expect(sides.rx.map((f) => `${f.label} ${f.value}`)).toEqual(['Rx BIN 610014', 'Rx PCN MEDDPRIME', 'Rx Group RX42']);
    expect(sides.back).toEqual([
      { key: 'memberServicesPhone', label: 'Member services', value: '+1 (800) 555-0100', href: 'tel:+18005550100' },
      { key: 'nurseLinePhone', label: 'Nurse line', value: '800.555.0199', href: 'tel:8005550199' },
      { key: 'payerId', label: 'Payer ID', value: '87726' },
    ]);
    expect(sides.backNote).toBe('Present this card at every visit.');
  });

  it('leaves empty and blank fields off', () => {
    const sides = cardSides(memberCard, { ...allDetails, planName: '', groupNumber: '   ', rxPcn: null, nurseLinePhone: null, backNote: ' ' });
    expect(keys(sides.front)).toEqual(['lhmpId', 'employer']);
    expect(keys(sides.rx)).toEqual(['rxBin', 'rxGroup']);
    expect(keys(sides.back)).toEqual(['memberServicesPhone', 'payerId']);
    expect(sides.backNote).toBeNull();
  });

  it("a family member's card: their name, relationship, date of birth, the subscriber and the member's plan", () => {
    const sides = cardSides(childCard, allDetails);
    expect(sides.name).toBe('Sam Tester');
    expect(sides.front.map((f) => [f.key, f.value])).toEqual([
      ['relationship', 'Child'],
      ['dateOfBirth', 'Jun 1, 2015'],
      ['subscriber', 'Riley Tester'],
      ['lhmpId', 'LQ00001'],
      ['employer', 'Acme Health Co'],
      ['planName', 'Gold PPO'],
      ['groupNumber', 'GRP-100'],
    ]);
  });

  it("a member's own card never shows relationship, birth date or subscriber", () => {
    const odd: IdCard = { ...memberCard, relationship: 'Spouse', dateOfBirth: '1990-01-01' };
    expect(keys(cardSides(odd, noDetails).front)).toEqual(['lhmpId', 'employer']);
  });
});

describe('telHref', () => {
  it.each([
    ['+1 (800) 555-0100', 'tel:+18005550100'],
    ['800-555-0100', 'tel:8005550100'],
    [' +44 20 7946 0958 ', 'tel:+442079460958'],
    ['12', null],
  ])('%s -> %s', (phone, href) => {
    expect(telHref(phone)).toBe(href);
  });
});

describe('formatCardDate', () => {
  it('prints the calendar date without a time-zone shift', () => {
    expect(formatCardDate('2026-01-01')).toBe('Jan 1, 2026');
    expect(formatCardDate('2026-01-01T23:59:59.000Z')).toBe('Jan 1, 2026');
    expect(formatCardDate('not a date')).toBe('not a date');
  });
});
