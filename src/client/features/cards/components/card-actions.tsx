import { Download, Share2 } from 'lucide-react';
import { useState } from 'react';
import { cardUi } from '../../../lib/messages/card-ui';
import { Button } from '../../../components/ui/button';
import type { CardSides } from '../card-fields';
import { cardPdf, cardPng } from '../card-image';
import type { Brand } from './id-card-view';

const a = cardUi.actions;

/** True where the browser can share a PNG file (Web Share API level 2); checked once. */
function canShareFiles(): boolean {
  try {
    if (typeof navigator.canShare !== 'function' || typeof navigator.share !== 'function') return false;
    return navigator.canShare({ files: [new File([new Uint8Array(8)], 'card.png', { type: 'image/png' })] });
  } catch {
    return false;
  }
}

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Share (a PNG, where the browser can share files) and Download (a wallet-size PDF). */
export function CardActions({ sides, token, brand }: { sides: CardSides; token: string; brand: Brand }) {
  const [shareable] = useState(canShareFiles);
  const [busy, setBusy] = useState<'share' | 'download' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const art = { sides, token, brandName: brand.name, brandColor: brand.color };

  const share = async () => {
    setBusy('share');
    setError(null);
    try {
      const file = new File([await cardPng(art)], `${a.fileName(sides.name)}.png`, { type: 'image/png' });
      await navigator.share({ files: [file], title: a.shareTitle(sides.name) });
    } catch (err) {
      // The member closing the share sheet is not a failure.
      if (!(err instanceof DOMException && err.name === 'AbortError')) setError(a.shareFailed);
    } finally {
      setBusy(null);
    }
  };

  const download = async () => {
    setBusy('download');
    setError(null);
    try {
      saveBlob(await cardPdf(art), `${a.fileName(sides.name)}.pdf`);
    } catch {
      setError(a.downloadFailed);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      {shareable && (
        <Button variant="secondary" size="sm" className="flex-1" onClick={() => void share()} disabled={busy !== null} aria-label={a.shareLabel(sides.name)}>
          <Share2 aria-hidden />
          {a.share}
        </Button>
      )}
      <Button variant="secondary" size="sm" className="flex-1" onClick={() => void download()} disabled={busy !== null} aria-label={a.downloadLabel(sides.name)}>
        <Download aria-hidden />
        {busy === 'download' ? a.downloading : a.download}
      </Button>
      {error && (
        <p role="alert" className="w-full text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </>
  );
}
