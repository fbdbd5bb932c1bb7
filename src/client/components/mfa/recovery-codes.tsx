import { Copy, Download } from 'lucide-react';
import type { Ref } from 'react';
import { mfa } from '../../lib/messages/mfa';
import { Button } from '../ui/button';
import { toast } from '../ui/use-toast';

const f = mfa.factor;

/** The text of the downloaded file: who it is for, then one code a line. */
export const recoveryCodesText = (codes: readonly string[], brandName: string, email: string) => `${f.downloadHeading(brandName, email)}\n${codes.join('\n')}\n`;

/**
 * The ten recovery codes, shown once: a list to read, Copy (clipboard) and Download (a .txt
 * made in the browser; nothing goes back to the server). The heading takes focus.
 */
export function RecoveryCodes({ codes, brandName, email, headingRef }: { codes: readonly string[]; brandName: string; email: string; headingRef?: Ref<HTMLHeadingElement> }) {
  const text = recoveryCodesText(codes, brandName, email);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: f.copied, variant: 'success' });
    } catch {
      toast({ title: f.copyFailed, variant: 'destructive' });
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = f.downloadName;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  return (
    <div className="flex flex-col gap-3">
      <h3 ref={headingRef} tabIndex={-1} className="text-base font-bold text-ink outline-none">
        {f.recoveryTitle}
      </h3>
      <p className="text-sm text-muted">{f.recoveryBody}</p>
      <ul aria-label={f.recoveryListLabel} className="grid grid-cols-2 gap-2 rounded-xl bg-canvas p-3">
        {codes.map((code) => (
          <li key={code}>
            <code className="font-mono text-base text-ink">{code}</code>
          </li>
        ))}
      </ul>
      <div className="flex gap-3">
        <Button variant="secondary" className="flex-1" onClick={() => void copy()}>
          <Copy aria-hidden />
          {f.copy}
        </Button>
        <Button variant="secondary" className="flex-1" onClick={download}>
          <Download aria-hidden />
          {f.download}
        </Button>
      </div>
    </div>
  );
}
