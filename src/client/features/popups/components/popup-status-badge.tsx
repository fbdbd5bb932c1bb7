import { CalendarClock, CircleCheck, Radio } from 'lucide-react';
import type { PopupStatus } from '#shared/schemas/popups';
import { Badge } from '../../../components/ui/badge';
import { t } from '../../../lib/i18n';

const a = t.popups.admin;

/**
 * Scheduled, Live or Ended for an active popup (an inactive one has its Inactive badge
 * already). Live stands out in colour; each also has its own shape, so colour is not the
 * only difference.
 */
export function PopupStatusBadge({ status, isActive }: { status: PopupStatus; isActive: boolean }) {
  if (!isActive || status === 'inactive') return null;
  return (
    <Badge variant={status === 'live' ? 'brand' : 'neutral'} data-testid="popup-status">
      {status === 'live' && <Radio className="size-3.5" aria-hidden />}
      {status === 'scheduled' && <CalendarClock className="size-3.5" aria-hidden />}
      {status === 'ended' && <CircleCheck className="size-3.5" aria-hidden />}
      {a.statuses[status]}
    </Badge>
  );
}
