import type { CardField, CardSides } from './card-fields';

/**
 * Where everything goes on a card drawn as an image (the PNG Share sends, the pages of the
 * PDF). Pure: text widths come from `measure`, so the layout is tested without a canvas.
 * Sizes are pixels of a wallet-size card (ISO/IEC 7810 ID-1, 3.375 x 2.125 in) at 300 dpi.
 */
export const CARD_INCHES = { width: 3.375, height: 2.125 } as const;
export const CARD_DPI = 300;
export const CARD_PX = { width: Math.round(CARD_INCHES.width * CARD_DPI), height: Math.round(CARD_INCHES.height * CARD_DPI) } as const;
/** Space between the two sides in the shared PNG. */
export const SIDES_GAP_PX = 48;

export type Measure = (text: string, font: string) => number;

export type TextOp = {
  kind: 'text';
  x: number;
  /** Baseline. */
  y: number;
  text: string;
  font: string;
  color: string;
  maxWidth: number;
  /** A phone number: the PDF makes this line a `tel:` link. */
  href?: string;
  /** The line's box, for the PDF link. */
  height: number;
};
export type RectOp = { kind: 'rect'; x: number; y: number; width: number; height: number; color: string; radius: number };
export type QrOp = { kind: 'qr'; x: number; y: number; size: number };
export type DrawOp = TextOp | RectOp | QrOp;

export type CardColors = { brand: string; onBrand: string; onBrandMuted: string; ink: string; muted: string; surface: string; line: string };

export const defaultCardColors = (brand: string): CardColors => ({
  brand,
  onBrand: '#ffffff',
  onBrandMuted: 'rgba(255,255,255,0.85)',
  ink: '#111827',
  muted: '#4b5563',
  surface: '#ffffff',
  line: '#d8dee6',
});

const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
export const font = (size: number, weight: 400 | 600 | 700 = 400) => `${weight} ${size}px ${FONT_FAMILY}`;

const PAD = 48;
const RADIUS = 36;
const QR_SIZE = 272;

/** Cuts `text` to fit `width`, ending with an ellipsis when it had to cut. */
export function fitText(text: string, width: number, f: string, measure: Measure): string {
  if (measure(text, f) <= width) return text;
  let end = text.length;
  while (end > 1 && measure(`${text.slice(0, end)}…`, f) > width) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/**
 * The largest of `sizes` (largest first) at which `text` fits `width`; at the smallest, the text
 * is cut to fit. Long employer names and phone numbers shrink before they are cut.
 */
export function fitFont(text: string, width: number, sizes: number[], weight: 400 | 600 | 700, measure: Measure): { text: string; font: string; size: number } {
  for (const size of sizes) {
    const f = font(size, weight);
    if (measure(text, f) <= width) return { text, font: f, size };
  }
  const size = sizes[sizes.length - 1] ?? 20;
  const f = font(size, weight);
  return { text: fitText(text, width, f, measure), font: f, size };
}

/** Breaks `text` into lines no wider than `width`, at most `maxLines` (the last one cut to fit). */
export function wrapText(text: string, width: number, f: string, measure: Measure, maxLines: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] ?? '';
    const candidate = line ? `${line} ${word}` : word;
    if (measure(candidate, f) <= width || !line) {
      line = candidate;
      continue;
    }
    if (lines.length === maxLines - 1) {
      line = `${line} ${words.slice(i).join(' ')}`;
      break;
    }
    lines.push(line);
    line = word;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) lines.length = maxLines;
  const last = lines.length - 1;
  if (last >= 0) lines[last] = fitText(lines[last] ?? '', width, f, measure);
  return lines;
}

function labelled(fieldItem: CardField, x: number, y: number, width: number, colors: { label: string; value: string }, sizes: { label: number; value: number }, measure: Measure): TextOp[] {
  const labelFont = font(sizes.label, 600);
  const label: TextOp = { kind: 'text', x, y: y + sizes.label, text: fitText(fieldItem.label.toUpperCase(), width, labelFont, measure), font: labelFont, color: colors.label, maxWidth: width, height: sizes.label };
  const valueY = y + sizes.label + 8 + sizes.value;
  const fitted = fitFont(fieldItem.value, width, [sizes.value, sizes.value - 4, sizes.value - 8, sizes.value - 12], 700, measure);
  const value: TextOp = { kind: 'text', x, y: valueY, text: fitted.text, font: fitted.font, color: colors.value, maxWidth: width, height: fitted.size };
  if (fieldItem.href) value.href = fieldItem.href;
  return [label, value];
}

/**
 * The front: brand and name at the top, the QR code on the right, the fields in two columns
 * on the left, the Rx lines under the QR code.
 */
export function layoutFront(sides: CardSides, brandName: string, colors: CardColors, measure: Measure): DrawOp[] {
  const { width, height } = CARD_PX;
  const ops: DrawOp[] = [{ kind: 'rect', x: 0, y: 0, width, height, color: colors.brand, radius: RADIUS }];
  const qrX = width - PAD - QR_SIZE;
  const leftWidth = qrX - PAD - 24;
  ops.push({ kind: 'rect', x: qrX, y: PAD, width: QR_SIZE, height: QR_SIZE, color: colors.surface, radius: 16 });
  ops.push({ kind: 'qr', x: qrX + 12, y: PAD + 12, size: QR_SIZE - 24 });
  const brandFont = font(40, 700);
  ops.push({ kind: 'text', x: PAD, y: PAD + 40, text: fitText(brandName, leftWidth, brandFont, measure), font: brandFont, color: colors.onBrand, maxWidth: leftWidth, height: 40 });
  const nameFont = font(52, 700);
  ops.push({ kind: 'text', x: PAD, y: PAD + 40 + 28 + 52, text: fitText(sides.name, leftWidth, nameFont, measure), font: nameFont, color: colors.onBrand, maxWidth: leftWidth, height: 52 });
  const gap = 24;
  const inner = width - PAD * 2;
  const rowHeight = 80;
  const top = PAD + 40 + 28 + 52 + 24;
  const qrBottom = PAD + QR_SIZE;
  const rxTop = height - PAD - 62;
  const cell = { label: 22, value: 32 };
  const colorsOnBrand = { label: colors.onBrandMuted, value: colors.onBrand };
  // Rows beside the QR code have two columns left of it; rows below it, three across the card.
  let y = top;
  let i = 0;
  const items = sides.front;
  while (i < items.length && y + rowHeight <= (sides.rx.length > 0 ? rxTop : height - PAD) + 8) {
    const beside = y < qrBottom;
    const columns = beside ? 2 : 3;
    const columnWidth = ((beside ? leftWidth : inner) - gap * (columns - 1)) / columns;
    for (let col = 0; col < columns && i < items.length; col += 1, i += 1) {
      ops.push(...labelled(items[i]!, PAD + col * (columnWidth + gap), y, columnWidth, colorsOnBrand, cell, measure));
    }
    y += rowHeight;
  }
  if (sides.rx.length > 0) {
    ops.push({ kind: 'rect', x: PAD, y: rxTop - 14, width: inner, height: 2, color: colors.onBrandMuted, radius: 0 });
    const columnWidth = (inner - gap * 2) / 3;
    sides.rx.forEach((item, col) => {
      ops.push(...labelled(item, PAD + col * (columnWidth + gap), rxTop, columnWidth, colorsOnBrand, { label: 22, value: 30 }, measure));
    });
  }
  return ops;
}

/**
 * The back: a brand band with the holder's name, the phone numbers and payer ID, the
 * employer's note, and the HIPAA notice at the foot.
 */
export function layoutBack(sides: CardSides, brandName: string, colors: CardColors, measure: Measure): DrawOp[] {
  const { width, height } = CARD_PX;
  const inner = width - PAD * 2;
  const ops: DrawOp[] = [
    { kind: 'rect', x: 0, y: 0, width, height, color: colors.line, radius: RADIUS },
    { kind: 'rect', x: 3, y: 3, width: width - 6, height: height - 6, color: colors.surface, radius: RADIUS - 3 },
    { kind: 'rect', x: 3, y: 3, width: width - 6, height: 96, color: colors.brand, radius: RADIUS - 3 },
    { kind: 'rect', x: 3, y: 60, width: width - 6, height: 39, color: colors.brand, radius: 0 },
  ];
  const bandFont = font(34, 700);
  ops.push({ kind: 'text', x: PAD, y: 64, text: fitText(`${brandName} · ${sides.name}`, inner, bandFont, measure), font: bandFont, color: colors.onBrand, maxWidth: inner, height: 34 });
  let y = 124;
  const columnGap = 24;
  const columns = Math.max(1, Math.min(3, sides.back.length));
  const columnWidth = (inner - columnGap * (columns - 1)) / columns;
  sides.back.forEach((item, i) => {
    const x = PAD + (i % columns) * (columnWidth + columnGap);
    ops.push(...labelled(item, x, y, columnWidth, { label: colors.muted, value: colors.ink }, { label: 22, value: 32 }, measure));
  });
  if (sides.back.length > 0) y += 90;
  const hipaaFont = font(22, 400);
  const hipaaLines = wrapText(sides.hipaa, inner, hipaaFont, measure, 3);
  const hipaaTop = height - PAD - hipaaLines.length * 30;
  if (sides.backNote) {
    const noteFont = font(26, 400);
    const room = Math.max(1, Math.floor((hipaaTop - 16 - y) / 34));
    for (const line of wrapText(sides.backNote, inner, noteFont, measure, room)) {
      y += 34;
      ops.push({ kind: 'text', x: PAD, y, text: line, font: noteFont, color: colors.ink, maxWidth: inner, height: 26 });
    }
  }
  hipaaLines.forEach((line, i) => {
    ops.push({ kind: 'text', x: PAD, y: hipaaTop + (i + 1) * 30, text: line, font: hipaaFont, color: colors.muted, maxWidth: inner, height: 22 });
  });
  return ops;
}

/** Moves every op down by `dy` (the back under the front in the shared PNG). */
export function offsetOps(ops: DrawOp[], dy: number): DrawOp[] {
  return ops.map((op) => ({ ...op, y: op.y + dy }));
}

/** The dark squares of a QR code as one SVG/Path2D path, one unit per module, `margin` modules of quiet zone. */
export function qrPath(size: number, isDark: (row: number, col: number) => boolean, margin = 0): string {
  const parts: string[] = [];
  for (let row = 0; row < size; row += 1) {
    let col = 0;
    while (col < size) {
      if (!isDark(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < size && isDark(row, col)) col += 1;
      parts.push(`M${start + margin} ${row + margin}h${col - start}v1h${start - col}z`);
    }
  }
  return parts.join('');
}

/** Where a text op's link box sits on a PDF page, in inches (jsPDF's unit here). */
export function linkBoxInches(op: TextOp): { x: number; y: number; width: number; height: number } {
  const pad = 6;
  return {
    x: op.x / CARD_DPI,
    y: (op.y - op.height - pad) / CARD_DPI,
    width: op.maxWidth / CARD_DPI,
    height: (op.height + pad * 2) / CARD_DPI,
  };
}
