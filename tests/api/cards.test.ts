import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employerCards, events, users } from '../../src/db/schema';
import { type CardClaims, encodeCardClaims, parseCardToken, verifyCardToken } from '../../src/shared/card-token';
import type { CardKeyResponse, IdCardsResponse } from '../../src/shared/schemas/cards';
import { asUser, createTestApp, freshSessionHeaders, signedInAdmin, signedInMember, type TestApp } from './support/test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let key: CardKeyResponse;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInAdmin(t);
  key = (await t.app.inject({ url: '/.well-known/wellhaven-card-key' })).json();
});
afterAll(async () => {
  await t?.close();
});

const employerName = () => `Cardtest ${randomUUID().slice(0, 8)} Health`;

/** A member of a new employer of their own; returns the member and the employer's id. */
async function memberOfNewEmployer() {
  const member = await signedInMember(t.app, { company: employerName() });
  const [row] = await t.database.db.select({ companyId: users.companyId }).from(users).where(eq(users.id, member.id));
  return { ...member, companyId: row!.companyId };
}

const cardsOf = (token: string) => t.app.inject(asUser(token, { method: 'GET', url: '/api/me/cards' }));
const cardUrl = (companyId: string) => `/api/admin/employers/${companyId}/card`;
const getCard = (companyId: string, token = admin.token) => t.app.inject(asUser(token, { method: 'GET', url: cardUrl(companyId) }));
const putCard = (companyId: string, payload: unknown, token = admin.token) =>
  t.app.inject(asUser(token, { method: 'PUT', url: cardUrl(companyId), payload: payload as Record<string, unknown> }));
const verify = (token: unknown) => t.app.inject({ method: 'POST', url: '/api/cards/verify', payload: { token } as Record<string, unknown> });

const fullDetails = {
  planName: 'Gold PPO',
  groupNumber: 'GRP-00417',
  rxBin: '610014',
  rxPcn: 'MEDDPRIME',
  rxGroup: 'RX7781',
  memberServicesPhone: '+1 (800) 555-0142',
  nurseLinePhone: '1-800-555-0199',
  payerId: '60054',
  backNote: 'Show this card at every visit. Claims: PO Box 1, Hartford CT.',
};
const emptyDetails = Object.fromEntries(Object.keys(fullDetails).map((k) => [k, null]));

describe('GET /.well-known/wellhaven-card-key', () => {
  it('serves the Ed25519 public key as base64url and JWK, cacheable and readable by any site', async () => {
    const res = await t.app.inject({ url: '/.well-known/wellhaven-card-key' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const body = res.json() as CardKeyResponse;
    expect(body.alg).toBe('Ed25519');
    expect(Buffer.from(body.publicKey, 'base64url')).toHaveLength(32);
    expect(body.jwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: body.publicKey });
    expect(Object.keys(body).sort()).toEqual(['alg', 'jwk', 'publicKey']);
  });
});

describe('GET /api/me/cards', () => {
  it("gives a member without family one card, signed, with the employer's empty details as null", async () => {
    const member = await memberOfNewEmployer();
    const res = await cardsOf(member.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as IdCardsResponse;
    expect(body.details).toEqual(emptyDetails);
    expect(body.cards).toHaveLength(1);
    const [card] = body.cards;
    expect(card).toMatchObject({
      id: 'member',
      kind: 'member',
      name: `${member.firstName} ${member.lastName}`,
      relationship: null,
      dateOfBirth: null,
      subscriberName: `${member.firstName} ${member.lastName}`,
      employer: member.company,
      lhmpId: member.lhmpId,
      issuedAt: '2026-03-02',
      expiresAt: '2026-04-01',
    });
    const verified = await verifyCardToken(card!.token, key.publicKey, t.clock());
    // Empty details leave plan and group off the signed payload too.
    expect(verified).toEqual({
      ok: true,
      claims: { n: `${member.firstName} ${member.lastName}`, e: member.company, m: member.lhmpId, iat: '2026-03-02', exp: '2026-04-01' },
    });
  });

  it('gives one card per family member, with relationship and date of birth, all verifying with the served key', async () => {
    const member = await memberOfNewEmployer();
    expect((await putCard(member.companyId, fullDetails)).statusCode).toBe(200);
    const family = [
      { firstName: 'Rosa', lastName: 'Lima', dob: '1988-06-14', relationship: 'Spouse' },
      { firstName: 'Tom', lastName: 'Lima', dob: '2015-02-03', relationship: 'Child' },
    ];
    const ids: string[] = [];
    for (const f of family) {
      const res = await t.app.inject(asUser(member.token, { method: 'POST', url: '/api/family-members', payload: f }));
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    const body = (await cardsOf(member.token)).json() as IdCardsResponse;
    expect(body.details).toEqual(fullDetails);
    // The member's own card first; the family in the profile's order (added at the same test-clock instant here, so by id).
    expect(body.cards[0]).toMatchObject({ id: 'member', kind: 'member', name: `${member.firstName} ${member.lastName}` });
    expect(body.cards.slice(1).map((c) => [c.id, c.kind, c.name, c.relationship, c.dateOfBirth]).sort((a, b) => String(a[2]).localeCompare(String(b[2])))).toEqual([
      [ids[0], 'dependant', 'Rosa Lima', 'Spouse', '1988-06-14'],
      [ids[1], 'dependant', 'Tom Lima', 'Child', '2015-02-03'],
    ]);
    for (const card of body.cards) {
      expect(card.subscriberName).toBe(`${member.firstName} ${member.lastName}`);
      expect(card.lhmpId).toBe(member.lhmpId);
      const result = await verifyCardToken(card.token, key.publicKey, t.clock());
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      expect(result.claims).toMatchObject({ n: card.name, e: member.company, m: member.lhmpId, p: 'Gold PPO', g: 'GRP-00417' });
      expect(result.claims.r).toBe(card.relationship ?? undefined);
    }
  });

  it('signs afresh on each call, dated by the clock', async () => {
    const member = await memberOfNewEmployer();
    const first = (await cardsOf(member.token)).json() as IdCardsResponse;
    t.clock.advance(3 * 24 * 60 * 60 * 1000);
    try {
      // The first session has long ended by then: a new one.
      const headers = await freshSessionHeaders(t, member.id);
      const later = (await t.app.inject({ url: '/api/me/cards', headers })).json() as IdCardsResponse;
      expect(later.cards[0]!.issuedAt).toBe('2026-03-05');
      expect(later.cards[0]!.expiresAt).toBe('2026-04-04');
      expect(later.cards[0]!.token).not.toBe(first.cards[0]!.token);
    } finally {
      t.clock.advance(-3 * 24 * 60 * 60 * 1000);
    }
  });

  it("shows a member their own employer's details, never another's", async () => {
    const a = await memberOfNewEmployer();
    const b = await memberOfNewEmployer();
    await putCard(a.companyId, { ...fullDetails, planName: 'Plan A' });
    await putCard(b.companyId, { ...fullDetails, planName: 'Plan B' });
    expect(((await cardsOf(a.token)).json() as IdCardsResponse).details.planName).toBe('Plan A');
    expect(((await cardsOf(b.token)).json() as IdCardsResponse).details.planName).toBe('Plan B');
  });

  it('refuses anonymous callers and forged tokens', async () => {
    expect((await t.app.inject({ url: '/api/me/cards' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/me/cards', headers: { authorization: `Bearer ${'x'.repeat(43)}` } })).statusCode).toBe(401);
  });
});

describe('POST /api/cards/verify', () => {
  let token: string;
  let member: Awaited<ReturnType<typeof memberOfNewEmployer>>;
  beforeAll(async () => {
    member = await memberOfNewEmployer();
    await putCard(member.companyId, fullDetails);
    token = ((await cardsOf(member.token)).json() as IdCardsResponse).cards[0]!.token;
  });

  it('says what a genuine card claims, to anyone', async () => {
    const res = await verify(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      valid: true,
      name: `${member.firstName} ${member.lastName}`,
      employer: member.company,
      lhmpId: member.lhmpId,
      planName: 'Gold PPO',
      groupNumber: 'GRP-00417',
      relationship: null,
      issuedAt: '2026-03-02',
      expiresAt: '2026-04-01',
    });
  });

  it('refuses changed claims, a changed signature and another key', async () => {
    const parsed = parseCardToken(token)!;
    const signature = token.slice(token.lastIndexOf('.') + 1);
    const forgedClaims: CardClaims = { ...parsed.claims, n: 'Someone Else' };
    expect((await verify(`${encodeCardClaims(forgedClaims)}.${signature}`)).json()).toEqual({ valid: false, reason: 'signature' });
    const flipped = signature[3] === 'A' ? 'B' : 'A';
    const badSignature = `${parsed.signingInput}.${signature.slice(0, 3)}${flipped}${signature.slice(4)}`;
    expect((await verify(badSignature)).json()).toEqual({ valid: false, reason: 'signature' });
    // A well-formed card from another issuer.
    const other = generateKeyPairSync('ed25519').privateKey;
    const { createCardSigner } = await import('../../src/server/modules/cards/signing-key');
    expect((await verify(createCardSigner(other).sign(parsed.claims))).json()).toEqual({ valid: false, reason: 'signature' });
  });

  it('calls junk malformed, and a card past its date expired', async () => {
    for (const junk of ['', 'hello', 'WHC1.a.b', `${token}x`]) {
      expect((await verify(junk)).json(), junk).toEqual({ valid: false, reason: 'malformed' });
    }
    t.clock.advance(31 * 24 * 60 * 60 * 1000);
    try {
      expect((await verify(token)).json()).toEqual({ valid: false, reason: 'expired' });
    } finally {
      t.clock.advance(-31 * 24 * 60 * 60 * 1000);
    }
  });

  it('answers 400 with the field for a body that is not a token', async () => {
    for (const payload of [{}, { token: 42 }, { token: 'x'.repeat(4001) }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/cards/verify', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toHaveProperty('token');
    }
  });
});

describe('GET and PUT /api/admin/employers/:companyId/card', () => {
  it('starts empty, saves every field, and reads them back', async () => {
    const { companyId } = await memberOfNewEmployer();
    const before = await getCard(companyId);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ companyId, details: emptyDetails, updatedAt: null });

    const saved = await putCard(companyId, fullDetails);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ companyId, details: fullDetails, updatedAt: t.clock().toISOString() });
    expect((await getCard(companyId)).json()).toEqual(saved.json());
    const [row] = await t.database.db.select().from(employerCards).where(eq(employerCards.companyId, companyId));
    expect(row).toMatchObject({ ...fullDetails, updatedBy: admin.id });
  });

  it('stores empty, blank and missing fields as null, and trims the rest', async () => {
    const { companyId, token } = await memberOfNewEmployer();
    await putCard(companyId, fullDetails);
    const res = await putCard(companyId, { planName: '  Silver HMO  ', groupNumber: '', rxBin: '   ', rxPcn: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().details).toEqual({ ...emptyDetails, planName: 'Silver HMO' });
    const cards = (await cardsOf(token)).json() as IdCardsResponse;
    expect(cards.details).toEqual({ ...emptyDetails, planName: 'Silver HMO' });
    const claims = parseCardToken(cards.cards[0]!.token)!.claims;
    expect(claims.p).toBe('Silver HMO');
    expect(claims).not.toHaveProperty('g');
  });

  it('answers 400 naming each bad field, and changes nothing', async () => {
    const { companyId } = await memberOfNewEmployer();
    await putCard(companyId, fullDetails);
    const res = await putCard(companyId, {
      planName: 'P'.repeat(61),
      rxBin: '61001',
      memberServicesPhone: 'call us',
      nurseLinePhone: '12345',
      payerId: 'ab\u202Ecd',
      backNote: 42,
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toEqual(expect.any(String));
    expect(body.fields).toEqual({
      planName: 'Must be 60 characters or fewer',
      rxBin: 'Rx BIN is 6 digits',
      memberServicesPhone: 'Enter a phone number of 7 to 15 digits (digits, spaces, +, -, brackets and dots)',
      nurseLinePhone: 'Enter a phone number of 7 to 15 digits (digits, spaces, +, -, brackets and dots)',
      payerId: 'Must not contain control or invisible characters',
      backNote: 'Must be 300 characters or fewer',
    });
    expect((await getCard(companyId)).json().details).toEqual(fullDetails);
    expect((await putCard(companyId, { rxBin: '1234567' })).json().fields).toEqual({ rxBin: 'Must be 6 characters or fewer' });
    expect((await putCard(companyId, ['not', 'an', 'object'])).statusCode).toBe(400);
  });

  it('writes an audit event naming the fields changed, one per save', async () => {
    const { companyId } = await memberOfNewEmployer();
    await putCard(companyId, { planName: 'Gold', groupNumber: 'G1' });
    await putCard(companyId, { planName: 'Gold', groupNumber: 'G2', rxBin: '123456' });
    const rows = await t.database.db
      .select()
      .from(events)
      .where(and(eq(events.companyId, companyId), eq(events.type, 'admin.employer_card.updated')))
      .orderBy(events.id);
    expect(rows.map((r) => [r.actorUserId, r.payloadJson])).toEqual([
      [admin.id, { changed: ['planName', 'groupNumber'] }],
      [admin.id, { changed: ['groupNumber', 'rxBin'] }],
    ]);
  });

  it('answers 404 for an unknown employer and for a malformed id, writing nothing', async () => {
    const unknown = randomUUID();
    expect((await getCard(unknown)).statusCode).toBe(404);
    const put = await putCard(unknown, fullDetails);
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ error: 'Employer not found', code: 'not_found' });
    for (const bad of ['not-a-uuid', '1', `${unknown}x`]) {
      const res = await getCard(bad);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'Employer not found', code: 'not_found' });
      expect((await putCard(bad, fullDetails)).statusCode).toBe(404);
    }
    expect(await t.database.db.select().from(employerCards).where(eq(employerCards.companyId, unknown))).toEqual([]);
  });

  it('refuses anonymous callers (401), members and admins without Admin Access (403)', async () => {
    const member = await memberOfNewEmployer();
    const plainAdmin = await signedInAdmin(t, { elevate: false });
    expect((await t.app.inject({ url: cardUrl(member.companyId) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: cardUrl(member.companyId), payload: fullDetails })).statusCode).toBe(401);
    for (const token of [member.token, plainAdmin.token]) {
      expect((await getCard(member.companyId, token)).statusCode).toBe(403);
      expect((await putCard(member.companyId, fullDetails, token)).statusCode).toBe(403);
    }
    expect(await t.database.db.select().from(employerCards).where(eq(employerCards.companyId, member.companyId))).toEqual([]);
  });

  it('two admins saving at once both succeed, one after the other', async () => {
    const { companyId } = await memberOfNewEmployer();
    const results = await Promise.all([putCard(companyId, { planName: 'One' }), putCard(companyId, { planName: 'Two' })]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const rows = await t.database.db.select().from(events).where(and(eq(events.companyId, companyId), eq(events.type, 'admin.employer_card.updated')));
    expect(rows.map((r) => r.payloadJson).sort()).toHaveLength(2);
    expect(['One', 'Two']).toContain((await getCard(companyId)).json().details.planName);
  });
});

describe('the OpenAPI document', () => {
  it('describes the card routes', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/api/me/cards'] ?? {})).toContain('get');
    expect(Object.keys(doc.paths['/api/cards/verify'] ?? {})).toContain('post');
    expect(Object.keys(doc.paths['/api/admin/employers/{companyId}/card'] ?? {}).sort()).toEqual(['get', 'put']);
  });
});

describe('configuration and limits', () => {
  let configured: TestApp;
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  beforeAll(async () => {
    configured = await createTestApp({
      env: { CARD_SIGNING_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }) as string, AUTH_RATE_LIMIT_PER_IP: '3' },
    });
  });
  afterAll(async () => {
    await configured?.close();
  });

  it('signs with CARD_SIGNING_KEY and serves its public half', async () => {
    const served = (await configured.app.inject({ url: '/.well-known/wellhaven-card-key' })).json() as CardKeyResponse;
    expect(served.publicKey).toBe(publicKey.export({ format: 'jwk' }).x);
    const member = await signedInMember(configured.app, { company: employerName() });
    const res = await configured.app.inject(asUser(member.token, { method: 'GET', url: '/api/me/cards' }));
    const token = (res.json() as IdCardsResponse).cards[0]!.token;
    expect((await verifyCardToken(token, served.publicKey, configured.clock())).ok).toBe(true);
  });

  it('limits card checks per IP like the other public calls (429 with Retry-After)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await configured.app.inject({ method: 'POST', url: '/api/cards/verify', payload: { token: 'x' }, remoteAddress: '198.51.100.7' });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const elsewhere = await configured.app.inject({ method: 'POST', url: '/api/cards/verify', payload: { token: 'x' }, remoteAddress: '203.0.113.9' });
    expect(elsewhere.statusCode).toBe(200);
  });
});
