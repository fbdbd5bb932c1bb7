import type { Ref } from 'react';
import { mfa } from '../../lib/messages/mfa';
import { QrCode } from './qr-code';

const f = mfa.factor;

/** The key in groups of four, as authenticator apps show it (they ignore the spaces). */
export const groupedKey = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * First step of a set-up: the QR code to scan and the same secret as text ("Setup key") for
 * someone who cannot scan. The heading takes focus when the step opens.
 */
export function TotpSetup({ secret, otpauthUrl, headingRef, headingId }: { secret: string; otpauthUrl: string; headingRef?: Ref<HTMLHeadingElement>; headingId?: string }) {
  return (
    <div className="flex flex-col gap-3">
      <h3 ref={headingRef} id={headingId} tabIndex={-1} className="text-base font-bold text-ink outline-none">
        {f.scanTitle}
      </h3>
      <p className="text-sm text-muted">{f.scanBody}</p>
      <QrCode value={otpauthUrl} />
      <dl className="flex flex-col gap-1">
        <dt className="text-sm font-semibold text-ink">{f.setupKey}</dt>
        <dd>
          <code data-testid="setup-key" className="block rounded-lg bg-canvas px-3 py-2 font-mono text-base tracking-wide text-ink select-all">
            {groupedKey(secret)}
          </code>
        </dd>
        <dd className="text-sm text-muted">{f.setupKeyHint}</dd>
      </dl>
    </div>
  );
}
