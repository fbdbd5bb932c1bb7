import QRCode from 'qrcode';
import { cardUi } from '../../lib/messages/card-ui';
import type { CardSides } from './card-fields';
import {
  CARD_INCHES,
  CARD_PX,
  type CardColors,
  type DrawOp,
  type Measure,
  SIDES_GAP_PX,
  defaultCardColors,
  layoutBack,
  layoutFront,
  linkBoxInches,
  offsetOps,
  qrPath,
} from './card-layout';

/** What drawing a card needs beyond its fields. */
export type CardArt = { sides: CardSides; token: string; brandName: string; brandColor: string };

/** The QR code's modules for a token (error correction M, as the screen shows it). */
export function qrModules(token: string): { size: number; isDark: (row: number, col: number) => boolean } {
  const { modules } = QRCode.create(token, { errorCorrectionLevel: 'M' });
  return { size: modules.size, isDark: (row, col) => Boolean(modules.get(row, col)) };
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  if (r > 0) ctx.roundRect(x, y, w, h, r);
  else ctx.rect(x, y, w, h);
  ctx.fill();
}

function paint(ctx: CanvasRenderingContext2D, ops: DrawOp[], token: string) {
  for (const op of ops) {
    if (op.kind === 'rect') {
      ctx.fillStyle = op.color;
      roundRect(ctx, op.x, op.y, op.width, op.height, op.radius);
    } else if (op.kind === 'text') {
      ctx.font = op.font;
      ctx.fillStyle = op.color;
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(op.text, op.x, op.y, op.maxWidth);
    } else {
      const qr = qrModules(token);
      const quiet = 2;
      const scale = op.size / (qr.size + quiet * 2);
      ctx.save();
      ctx.translate(op.x, op.y);
      ctx.scale(scale, scale);
      ctx.fillStyle = '#000000';
      ctx.fill(new Path2D(qrPath(qr.size, qr.isDark, quiet)));
      ctx.restore();
    }
  }
}

function newCanvas(width: number, height: number) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas 2d unavailable');
  return { canvas, ctx };
}

const measureWith =
  (ctx: CanvasRenderingContext2D): Measure =>
  (text, f) => {
    ctx.font = f;
    return ctx.measureText(text).width;
  };

function layouts(art: CardArt, ctx: CanvasRenderingContext2D, colors: CardColors) {
  const measure = measureWith(ctx);
  return { front: layoutFront(art.sides, art.brandName, colors, measure), back: layoutBack(art.sides, art.brandName, colors, measure) };
}

/** One side as its own canvas (a PDF page). */
function sideCanvas(art: CardArt, side: 'front' | 'back') {
  const { canvas, ctx } = newCanvas(CARD_PX.width, CARD_PX.height);
  // A JPEG page has no transparency: the rounded corners sit on white, as on paper.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, CARD_PX.width, CARD_PX.height);
  const ops = layouts(art, ctx, defaultCardColors(art.brandColor))[side];
  paint(ctx, ops, art.token);
  return { canvas, ops };
}

/** The card as one PNG: the front above the back, on a transparent background. */
export async function cardPng(art: CardArt): Promise<Blob> {
  const { canvas, ctx } = newCanvas(CARD_PX.width, CARD_PX.height * 2 + SIDES_GAP_PX);
  const { front, back } = layouts(art, ctx, defaultCardColors(art.brandColor));
  paint(ctx, [...front, ...offsetOps(back, CARD_PX.height + SIDES_GAP_PX)], art.token);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob failed'))), 'image/png'));
}

/**
 * The card as a two-page PDF, front then back, each page wallet size; the phone numbers on
 * the back stay tappable links. jsPDF is loaded here, on the first download, never with the
 * screen (docs/decisions/id-card-share-pdf.md).
 */
export async function cardPdf(art: CardArt): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ unit: 'in', format: [CARD_INCHES.width, CARD_INCHES.height], orientation: 'landscape', compress: true });
  doc.setProperties({ title: cardUi.actions.shareTitle(art.sides.name), creator: art.brandName });
  (['front', 'back'] as const).forEach((side, i) => {
    if (i > 0) doc.addPage([CARD_INCHES.width, CARD_INCHES.height], 'landscape');
    const { canvas, ops } = sideCanvas(art, side);
    doc.addImage(canvas.toDataURL('image/jpeg', 0.92), 'JPEG', 0, 0, CARD_INCHES.width, CARD_INCHES.height);
    for (const op of ops) {
      if (op.kind !== 'text' || !op.href) continue;
      const box = linkBoxInches(op);
      doc.link(box.x, box.y, box.width, box.height, { url: op.href });
    }
  });
  return doc.output('blob');
}
