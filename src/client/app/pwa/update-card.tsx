import { Button } from '../../components/ui/button';
import { offline } from '../../lib/messages/offline';

/**
 * "A new version is available" with Later and Reload. Reload lets the waiting worker take over
 * (Workbox's SKIP_WAITING) and reloads once it has; nothing swaps the app before the member asks.
 */
export default function UpdateCard({ registration, onLater }: { registration: ServiceWorkerRegistration; onLater: () => void }) {
  const reload = () => {
    const worker = registration.waiting;
    if (!worker) {
      window.location.reload();
      return;
    }
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    worker.postMessage({ type: 'SKIP_WAITING' });
  };

  const m = offline;
  return (
    <div
      role="status"
      className="fixed inset-x-3 bottom-20 z-[160] mx-auto flex max-w-md flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-lg"
      data-testid="update-prompt"
    >
      <div>
        <p className="font-semibold text-ink">{m.updateAvailable}</p>
        <p className="text-sm text-muted">{m.updateDetail}</p>
      </div>
      <div className="flex gap-3">
        <Button variant="secondary" className="flex-1" onClick={onLater}>
          {m.later}
        </Button>
        <Button className="flex-1" onClick={reload}>
          {m.reload}
        </Button>
      </div>
    </div>
  );
}
