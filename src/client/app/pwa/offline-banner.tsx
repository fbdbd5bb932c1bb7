import { WifiOffIcon } from '../../components/shell-icons';
import { useOnline } from '../../lib/use-online';
import { offline } from '../../lib/messages/offline';

/**
 * "You're offline", for as long as the connection is lost, at the top of every screen. The
 * live region is always in the page (empty when online), so the change is announced. While it
 * shows, the sticky header stops below it (--offline-banner-height, styles.css).
 */
export function OfflineBanner() {
  const online = useOnline();
  const m = offline;
  return (
    <div role="status" className="sticky top-0 z-[150]" data-testid="offline-banner">
      {!online && (
        <p data-offline-banner className="flex h-9 items-center justify-center gap-2 bg-ink px-4 text-center text-sm font-semibold whitespace-nowrap text-surface">
          <WifiOffIcon className="size-4 shrink-0" aria-hidden />
          <span>
            {m.banner}
            <span className="sr-only">. {m.bannerDetail}</span>
          </span>
        </p>
      )}
    </div>
  );
}
