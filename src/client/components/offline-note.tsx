import { t } from '../lib/i18n';
import { Alert } from './ui/alert';
import { useOnline } from '../lib/use-online';
import { format } from '../lib/language';

/**
 * On a data screen while offline: "Offline — showing information from <time>" when the screen
 * shows data it had (`updatedAt`, the query's dataUpdatedAt), or a clear offline state when it
 * has none. Nothing while online.
 */
export function OfflineNote({ updatedAt, className }: { updatedAt: number | undefined; className?: string }) {
  const online = useOnline();
  if (online) return null;
  const m = t.offline;
  return (
    <Alert variant="info" className={className} data-testid="offline-note">
      {updatedAt ? m.showingFrom(format.dateTime(new Date(updatedAt).toISOString())) : m.nothingSaved}
    </Alert>
  );
}
