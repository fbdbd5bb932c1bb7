import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EmployerCardDetails, IdCard } from '#shared/schemas/cards';
import { cardSides } from './card-fields';
import { qrModules } from './card-image';
import {
  CARD_INCHES,
  CARD_PX,
  type DrawOp,
  type Measure,
  type TextOp,
  defaultCardColors,
  fitFont,
  fitText,
  layoutBack,
  layoutFront,
  linkBoxInches,
  offsetOps,
  qrPath,
  wrapText,
} from './card-layout';

/** A monospace stand-in for canvas measureText: every character half the font size wide. */
const measure: Measure = (text, f) => text.length * Number(/(\d+)px/.exec(f)?.[1] ?? 10) * 0.5;

const details: EmployerCardDetails = {
  planName: 'Gold PPO',
  groupNumber: 'GRP-100',
  rxBin: '610014',
  rxPcn: 'MEDDPRIME',
  rxGroup: 'RX42',
  memberServicesPhone: '+1 800 555 0100',
  nurseLinePhone: '+1 800 555 0199',
  payerId: '87726',
  backNote: 'Present this card at every visit. Claims: PO Box 1000, Springfield. '.repeat(4).trim(),
};
const card: IdCard = {
  id: 'f1',
  kind: 'dependant',
  name: 'Alexandria Montgomery-Fitzgerald the Third of Springfield',
  relationship: 'Child',
  dateOfBirth: '2015-06-01',
  subscriberName: 'Riley Tester',
  employer: 'Acme Health Co',
  lhmpId: 'LQ00001',
  issuedAt: '2026-11-23T00:00:00.000Z',
  expiresAt: '2026-12-23T00:00:00.000Z',
  token: 'WHC1.x.y',
};
const colors = defaultCardColors('#0f766e');
const texts = (ops: DrawOp[]) => ops.filter((op): op is TextOp => op.kind === 'text');

function inside(op: DrawOp) {
  if (op.kind === 'text') {
    expect(op.x).toBeGreaterThanOrEqual(0);
    expect(op.x + measure(op.text, op.font)).toBeLessThanOrEqual(CARD_PX.width - 47);
    expect(op.y - op.height).toBeGreaterThanOrEqual(0);
    expect(op.y).toBeLessThanOrEqual(CARD_PX.height - 40);
  } else {
    expect(op.x + ('size' in op ? op.size : op.width)).toBeLessThanOrEqual(CARD_PX.width);
    expect(op.y + ('size' in op ? op.size : op.height)).toBeLessThanOrEqual(CARD_PX.height);
  }
}

describe('card image layout', () => {
  it('is a wallet-size card at 300 dpi', () => {
    expect(CARD_INCHES).toEqual({ width: 3.375, height: 2.125 });
    expect(CARD_PX).toEqual({ width: 1013, height: 638 });
  });

  it('the front has the brand, the name, every front field, the Rx lines and the QR code, all on the card', () => {
    const ops = layoutFront(cardSides(card, details), 'Wellhaven', colors, measure);
    const all = texts(ops).map((op) => op.text);
    expect(all[0]).toBe('Wellhaven');
    expect(all[1]).toMatch(/^Alexandria Montgomery.*…$/);
    for (const value of ['Child', 'Jun 1, 2015', 'Riley Tester', 'LQ00001', 'Acme Health Co', 'Gold PPO', 'GRP-100']) expect(all).toContain(value);
    for (const rx of ['RX BIN', '610014', 'RX PCN', 'MEDDPRIME', 'RX GROUP', 'RX42']) expect(all).toContain(rx);
    expect(ops.filter((op) => op.kind === 'qr')).toHaveLength(1);
    ops.forEach(inside);
  });

  it('the back has the phones as links, the payer ID, the note and the HIPAA notice at the foot, all on the card', () => {
    const ops = layoutBack(cardSides(card, details), 'Wellhaven', colors, measure);
    const links = texts(ops).filter((op) => op.href);
    expect(links.map((op) => op.href)).toEqual(['tel:+18005550100', 'tel:+18005550199']);
    expect(texts(ops).map((op) => op.text)).toContain('87726');
    const lines = texts(ops);
    const last = lines[lines.length - 1]!;
    expect(lines.some((op) => op.text.includes('HIPAA'))).toBe(true);
    expect(last.color).toBe(colors.muted);
    ops.forEach(inside);
    // The note never runs into the HIPAA notice.
    const hipaaTop = Math.min(...lines.filter((op) => op.color === colors.muted && op.font.startsWith('400')).map((op) => op.y - op.height));
    const noteBottom = Math.max(...lines.filter((op) => op.color === colors.ink && op.font.startsWith('400')).map((op) => op.y));
    expect(noteBottom).toBeLessThan(hipaaTop);
  });

  it('a card with no employer details still lays out (name, LHMP ID, employer, HIPAA)', () => {
    const empty = cardSides({ ...card, kind: 'member', relationship: null, dateOfBirth: null }, { ...details, planName: null, groupNumber: null, rxBin: null, rxPcn: null, rxGroup: null, memberServicesPhone: null, nurseLinePhone: null, payerId: null, backNote: null });
    const front = texts(layoutFront(empty, 'Wellhaven', colors, measure)).map((op) => op.text);
    expect(front).toEqual(expect.arrayContaining(['LQ00001', 'Acme Health Co']));
    const back = texts(layoutBack(empty, 'Wellhaven', colors, measure));
    expect(back.some((op) => op.text.includes('HIPAA'))).toBe(true);
  });

  it('the shared PNG puts the back under the front', () => {
    const back = layoutBack(cardSides(card, details), 'W', colors, measure);
    const moved = offsetOps(back, CARD_PX.height + 48);
    expect(moved.map((op) => op.y - (CARD_PX.height + 48))).toEqual(back.map((op) => op.y));
  });

  it('a PDF link box sits over its line, in inches', () => {
    const op: TextOp = { kind: 'text', x: 300, y: 336, text: '+1 800', font: '700 30px x', color: '#000', maxWidth: 600, height: 30, href: 'tel:+1800' };
    expect(linkBoxInches(op)).toEqual({ x: 1, y: 1, width: 2, height: 0.14 });
  });
});

describe('fitText and wrapText', () => {
  it('fitText keeps short text and cuts long text with an ellipsis within the width', () => {
    expect(fitText('Short', 100, '10px x', measure)).toBe('Short');
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), fc.integer({ min: 10, max: 400 }), (text, width) => {
        const out = fitText(text, width, '10px x', measure);
        expect(out === text || out.endsWith('…')).toBe(true);
        if (out !== text) expect(measure(out, '10px x') <= width || out.length <= 2).toBe(true);
      }),
    );
  });

  it('wrapText keeps every word in order within the line count', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 5 }), (words, maxLines) => {
        const lines = wrapText(words.join(' '), 200, '10px x', measure, maxLines);
        expect(lines.length).toBeLessThanOrEqual(maxLines);
        for (const line of lines) expect(measure(line, '10px x')).toBeLessThanOrEqual(200);
        const joined = lines.join(' ');
        if (!joined.endsWith('…')) expect(joined).toBe(words.join(' '));
      }),
    );
  });
});

describe('QR code path', () => {
  it('covers exactly the dark modules', () => {
    const grid = [
      [true, true, false],
      [false, true, false],
      [true, false, true],
    ];
    expect(qrPath(3, (r, c) => grid[r]![c]!)).toBe('M0 0h2v1h-2zM1 1h1v1h-1zM0 2h1v1h-1zM2 2h1v1h-1z');
    expect(qrPath(1, () => true, 2)).toBe('M2 2h1v1h-1z');
  });

  it('a real token becomes a QR code (version grows with the payload)', () => {
    const token = `WHC1.${'A'.repeat(300)}.${'B'.repeat(86)}`;
    const qr = qrModules(token);
    expect(qr.size).toBeGreaterThanOrEqual(21);
    expect((qr.size - 17) % 4).toBe(0);
    // The three finder patterns are dark at their corners.
    expect([qr.isDark(0, 0), qr.isDark(0, qr.size - 1), qr.isDark(qr.size - 1, 0)]).toEqual([true, true, true]);
  });
});

describe('fitFont', () => {
  it('shrinks a long value before cutting it', () => {
    expect(fitFont('Acme', 200, [34, 30, 26], 700, measure).size).toBe(34);
    const shrunk = fitFont('Card Employer 85a2014a', 297, [34, 30, 26, 22], 700, measure);
    expect(shrunk).toEqual({ text: 'Card Employer 85a2014a', font: expect.stringContaining('26px'), size: 26 });
    const cut = fitFont('x'.repeat(200), 297, [34, 22], 700, measure);
    expect(cut.size).toBe(22);
    expect(cut.text.endsWith('…')).toBe(true);
  });
});

describe('a dependant card with every field', () => {
  it('fits all seven front fields and the Rx row on the card', () => {
    const sides = cardSides({ ...card, name: 'Sam' }, details);
    const ops = layoutFront(sides, 'Wellhaven', colors, measure);
    const shown = texts(ops).map((op) => op.text);
    for (const f of sides.front) expect(shown).toContain(f.value);
    ops.forEach(inside);
  });
});
