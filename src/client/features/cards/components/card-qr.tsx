import { useMemo } from 'react';
import { cardUi } from '../../../lib/messages/card-ui';
import { qrModules } from '../card-image';
import { qrPath } from '../card-layout';

const QUIET = 2;

/**
 * The card's signed payload as a QR code, drawn as SVG in the page (no image request, crisp
 * at any zoom). `data-card-token` carries the payload for tests and assistive tools.
 */
export function CardQr({ token, name }: { token: string; name: string }) {
  const qr = useMemo(() => {
    try {
      const { size, isDark } = qrModules(token);
      return { size, d: qrPath(size, isDark, QUIET) };
    } catch {
      return null;
    }
  }, [token]);
  if (!qr) return <p className="text-xs">{cardUi.card.qrFailed}</p>;
  const n = qr.size + QUIET * 2;
  return (
    <svg role="img" aria-label={cardUi.card.qrAlt(name)} data-card-token={token} viewBox={`0 0 ${n} ${n}`} shapeRendering="crispEdges" className="block size-full rounded-md bg-white">
      <rect width={n} height={n} fill="#ffffff" />
      <path d={qr.d} fill="#000000" />
    </svg>
  );
}
