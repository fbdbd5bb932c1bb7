import { WifiOff } from 'lucide-react';
import { useOnline } from '../../lib/use-online';
import { offline } from '#shared/messages/offline';

/**
 * "You're offline", for as long as the connection is lost, at the top of every screen. The
 * live region is always in the page (empty when online), so the change is announced.
 */
export function OfflineBanner() {
  const online = useOnline();
  const m = offline;
  return (
    <div role="status" className="sticky top-0 z-[150]" data-testid="offline-banner">
      {!online && (
        <p className="flex items-center justify-center gap-2 bg-ink px-4 py-2 text-center text-sm font-semibold text-surface">
          <WifiOff className="size-4 shrink-0" aria-hidden />
          <span>
            {m.banner}
            <span className="sr-only">. {m.bannerDetail}</span>
          </span>
        </p>
      )}
    </div>
  );
}
