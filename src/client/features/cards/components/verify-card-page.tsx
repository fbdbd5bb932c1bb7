import { CheckCircle2, Camera, XCircle } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { verifyCardToken } from '#shared/card-token';
import { cardUi } from '../../../lib/messages/card-ui';
import { PageLayout } from '../../../components/page-layout';
import { Button } from '../../../components/ui/button';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import { cn } from '../../../lib/cn';
import { getCardKey, useCardKey } from '../api/get-card-key';
import { type VerifyOutcome, describeVerification, normalisePayload } from '../verify-result';

const v = cardUi.verify;

type Detector = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };
type DetectorConstructor = new (options: { formats: string[] }) => Detector;

const detectorClass = (): DetectorConstructor | null =>
  typeof window !== 'undefined' && 'BarcodeDetector' in window ? ((window as unknown as { BarcodeDetector: DetectorConstructor }).BarcodeDetector ?? null) : null;

/** Scans QR codes from the back camera with BarcodeDetector until one is found or it is stopped. */
function Scanner({ onFound, onFailed }: { onFound: (text: string) => void; onFailed: () => void }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const Detector = detectorClass();
    if (!Detector) return;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const detector = new Detector({ formats: ['qr_code'] });
    const tick = async () => {
      if (stopped || !video.current) return;
      try {
        const codes = video.current.readyState >= 2 ? await detector.detect(video.current) : [];
        const found = codes.find((code) => code.rawValue);
        if (found && !stopped) {
          onFound(found.rawValue);
          return;
        }
      } catch {
        // A frame that could not be read; try the next.
      }
      if (!stopped) timer = setTimeout(() => void tick(), 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then(async (s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        void tick();
      })
      .catch(() => {
        if (!stopped) onFailed();
      });
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [onFound, onFailed]);
  return (
    <div className="flex flex-col gap-2">
      <video ref={video} muted playsInline aria-label={v.cameraLabel} className="aspect-square w-full rounded-2xl bg-black object-cover" />
      <p className="text-sm text-muted">{v.scanning}</p>
    </div>
  );
}

/**
 * /verify-card (public): a front desk scans a card's QR code, or pastes what it holds, and is
 * told whether the programme signed it. Works offline once visited: the key is remembered.
 */
export function VerifyCardPage() {
  const id = useId();
  const key = useCardKey();
  const [payload, setPayload] = useState('');
  const [scanning, setScanning] = useState(false);
  const [cameraFailed, setCameraFailed] = useState(false);
  const [checking, setChecking] = useState(false);
  const [empty, setEmpty] = useState(false);
  const [outcome, setOutcome] = useState<VerifyOutcome | null>(null);
  const [canScan] = useState(() => detectorClass() !== null && typeof navigator.mediaDevices?.getUserMedia === 'function');

  const check = useCallback(
    async (text: string) => {
      const token = normalisePayload(text);
      if (!token) {
        setEmpty(true);
        setOutcome(null);
        return;
      }
      setEmpty(false);
      setChecking(true);
      try {
        const publicKey = key.data ?? (await getCardKey().catch(() => null));
        setOutcome(describeVerification(publicKey ? await verifyCardToken(token, publicKey, new Date()) : { ok: false, reason: 'noKey' }));
      } finally {
        setChecking(false);
      }
    },
    [key.data],
  );

  const onFound = useCallback(
    (text: string) => {
      setScanning(false);
      setPayload(text);
      void check(text);
    },
    [check],
  );
  const onFailed = useCallback(() => {
    setScanning(false);
    setCameraFailed(true);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void check(payload);
  };

  return (
    <PageLayout title={v.title}>
      <h1 className="text-2xl font-bold text-ink">{v.title}</h1>
      <p className="text-sm text-muted">{v.intro}</p>
      {canScan && (
        <div className="flex flex-col gap-3">
          <Button
            variant={scanning ? 'secondary' : 'primary'}
            onClick={() => {
              setCameraFailed(false);
              setScanning((on) => !on);
            }}
          >
            <Camera aria-hidden />
            {scanning ? v.stopScan : v.scan}
          </Button>
          {scanning && <Scanner onFound={onFound} onFailed={onFailed} />}
          {cameraFailed && (
            <p role="alert" className="text-sm font-medium text-danger">
              {v.cameraFailed}
            </p>
          )}
        </div>
      )}
      <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-payload`}>{v.pasteLabel}</Label>
          <Textarea
            id={`${id}-payload`}
            value={payload}
            onChange={(event) => setPayload(event.target.value)}
            aria-describedby={`${id}-hint${empty ? ` ${id}-empty` : ''}`}
            aria-invalid={empty || undefined}
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            className="font-mono text-sm break-all"
            rows={4}
          />
          <p id={`${id}-hint`} className="text-sm text-muted">
            {v.pasteHint}
          </p>
          {empty && (
            <p id={`${id}-empty`} className="text-sm font-medium text-danger">
              {v.empty}
            </p>
          )}
        </div>
        <Button type="submit" disabled={checking}>
          {checking ? v.checking : v.check}
        </Button>
      </form>
      <div role="status" aria-live="polite" aria-atomic="true">
        {outcome && (
          <div
            data-valid={outcome.valid}
            className={cn('flex items-start gap-3 rounded-2xl border p-4', outcome.valid ? 'border-success/30 bg-success-soft text-success' : 'border-danger/30 bg-danger-soft text-danger')}
          >
            {outcome.valid ? <CheckCircle2 className="mt-0.5 size-6 shrink-0" aria-hidden /> : <XCircle className="mt-0.5 size-6 shrink-0" aria-hidden />}
            <div className="flex flex-col gap-1">
              <p className="text-lg font-bold">{outcome.headline}</p>
              {outcome.lines.map((line) => (
                <p key={line} className="text-sm text-ink">
                  {line}
                </p>
              ))}
            </div>
          </div>
        )}
      </div>
    </PageLayout>
  );
}

export default VerifyCardPage;
