import { useEffect, useState } from 'react';
import { mfa } from '../../lib/messages/mfa';

const f = mfa.factor;
const SIZE = 192;

/**
 * The otpauth URI as a QR code, drawn in the browser: `qrcode` is loaded only when a set-up
 * shows one (its own chunk), so no member screen downloads it, and the secret never leaves
 * the page for an image service.
 */
export function QrCode({ value }: { value: string }) {
  const [image, setImage] = useState<{ value: string; src: string } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    import('qrcode')
      .then((qr) => qr.toDataURL(value, { errorCorrectionLevel: 'M', margin: 2, width: SIZE * 2 }))
      .then((src) => {
        if (!cancelled) setImage({ value, src });
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [value]);

  if (failed) return <p className="text-sm text-danger">{f.qrFailed}</p>;
  const src = image?.value === value ? image.src : undefined;
  return (
    <div className="flex justify-center">
      {src ? (
        <img src={src} alt={f.qrAlt} width={SIZE} height={SIZE} className="rounded-lg border border-line bg-white" />
      ) : (
        <div role="status" className="flex items-center justify-center rounded-lg border border-line bg-canvas text-sm text-muted" style={{ width: SIZE, height: SIZE }}>
          {f.qrLoading}
        </div>
      )}
    </div>
  );
}
