import { BarChart3, Pencil, Plus, Power, PowerOff, Trash2 } from 'lucide-react';
import { type RefObject, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { type AdminPopupListItem, POPUP_SORT_FIELDS, type PopupSortField, type PopupTheme } from '#shared/schemas/popups';
import { ErrorState, LoadingState } from '../../../components/load-states';
import { PageLayout } from '../../../components/page-layout';
import { SearchBox } from '../../../components/search-box';
import { SortControls } from '../../../components/sort-controls';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogClose, DialogContent } from '../../../components/ui/dialog';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { chooseSortField, toggleSortOrder, useUrlListState } from '../../../lib/list-state';
import {
  audienceSummary,
  destinationName,
  footerText,
  formatActivePeriod,
  listQuery,
  occurrenceLine,
  type PopupListState,
  readPopupListState,
  writePopupListState,
} from '../admin-popup-view';
import { useDeletePopup } from '../api/delete-popup';
import { useAdminPopups } from '../api/get-admin-popups';
import { useSetPopupActive } from '../api/set-popup-active';
import { PopupFormDialog } from './popup-form-dialog';
import { PopupStatusBadge } from './popup-status-badge';

const a = t.popups.admin;

const statusOptions = [
  { value: 'all', label: a.statusAll },
  { value: 'active', label: a.statusActive },
  { value: 'inactive', label: a.statusInactive },
];
const sortLabels: Record<PopupSortField, string> = { priority: a.sortPriority, title: a.sortTitle, createdAt: a.sortCreatedAt };
const sortOptions = POPUP_SORT_FIELDS.map((value) => ({ value, label: sortLabels[value] }));

const themeSwatch: Record<PopupTheme, string> = {
  green: 'bg-emerald-600',
  purple: 'bg-violet-600',
  white: 'bg-white ring-1 ring-line',
};

/** Where the card says the button goes: a screen's name, or a website's address. */
function destinationText(target: string): string {
  if (target.startsWith('/')) return destinationName(target);
  try {
    const url = new URL(target);
    return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return target;
  }
}

/**
 * One popup: every field, its status and next occurrence, the three counters, and the
 * actions as labelled buttons (their accessible names add the popup's title).
 */
function PopupCard({
  popup,
  onEdit,
  onToggle,
  onDelete,
  statusPending,
}: {
  popup: AdminPopupListItem;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
  statusPending: boolean;
}) {
  const s = popup.statistics;
  const recurrence =
    popup.recurrence === 'NONE' ? a.recurrences.NONE : a.recurrenceSummary(a.recurrences[popup.recurrence], popup.interval, popup.timezone);
  const occurrence = occurrenceLine(popup);
  return (
    <Card className="flex flex-col gap-3 p-4" aria-labelledby={`popup-${popup.id}-title`} data-testid="popup-card">
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="neutral">
            <span className={cn('size-2.5 rounded-full', themeSwatch[popup.theme])} aria-hidden />
            {a.themes[popup.theme]}
          </Badge>
          <Badge variant={popup.isActive ? 'success' : 'neutral'}>{popup.isActive ? a.active : a.inactive}</Badge>
          <PopupStatusBadge status={popup.status} isActive={popup.isActive} />
        </div>
        <h2 id={`popup-${popup.id}-title`} className="text-lg leading-snug font-bold break-words text-ink">
          {popup.title}
        </h2>
        <p className="line-clamp-2 text-sm break-words text-muted">{popup.message}</p>
      </div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        {occurrence && (
          <>
            <dt className="text-muted">{occurrence.label}</dt>
            <dd className="font-medium" data-testid="popup-occurrence">
              {occurrence.value}
            </dd>
          </>
        )}
        <dt className="text-muted">{a.target}</dt>
        <dd className="font-medium">{a.targets[popup.target]}</dd>
        <dt className="text-muted">{a.buttonLabel}</dt>
        <dd className="font-medium break-words">{popup.actionLabel}</dd>
        <dt className="text-muted">{a.destination}</dt>
        <dd className="font-medium break-words">{destinationText(popup.actionTarget)}</dd>
        <dt className="text-muted">{a.audience}</dt>
        <dd className="font-medium break-words">{audienceSummary(popup.audience)}</dd>
        <dt className="text-muted">{a.priority}</dt>
        <dd className="font-medium">{popup.priority}</dd>
        <dt className="text-muted">{a.maxSnoozes}</dt>
        <dd className="font-medium">{popup.maxSnoozes}</dd>
        <dt className="text-muted">{a.recurrence}</dt>
        <dd className="font-medium break-words">{recurrence}</dd>
        <dt className="text-muted">{a.activePeriod}</dt>
        <dd className="font-medium">{formatActivePeriod(popup)}</dd>
      </dl>
      <ul className="grid grid-cols-[repeat(auto-fit,minmax(6rem,1fr))] gap-2 text-center text-sm" aria-label={a.statistics}>
        {[a.shows(s.totalShows), a.snoozes(s.totalSnoozes), a.completed(s.totalCompletions)].map((label) => (
          <li key={label} className="rounded-xl bg-canvas px-2 py-2 font-semibold whitespace-nowrap text-ink tabular-nums">
            {label}
          </li>
        ))}
      </ul>
      <div className="grid grid-cols-2 gap-2 border-t border-line pt-3" role="group" aria-label={a.actions(popup.title)}>
        <Button variant="secondary" size="sm" asChild>
          <Link to={paths.adminPopup(popup.id)} aria-label={a.resultsFor(popup.title)}>
            <BarChart3 aria-hidden />
            {a.actionResults}
          </Link>
        </Button>
        <Button variant="secondary" size="sm" aria-label={a.edit(popup.title)} onClick={onEdit}>
          <Pencil aria-hidden />
          {a.actionEdit}
        </Button>
        <Button variant="secondary" size="sm" aria-label={popup.isActive ? a.deactivate(popup.title) : a.activate(popup.title)} disabled={statusPending} onClick={onToggle}>
          {popup.isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />}
          {popup.isActive ? a.actionDeactivate : a.actionActivate}
        </Button>
        <Button variant="secondary" size="sm" className="text-danger" aria-label={a.delete(popup.title)} onClick={onDelete}>
          <Trash2 aria-hidden />
          {a.actionDelete}
        </Button>
      </div>
    </Card>
  );
}

/**
 * Delete asks in the app's own dialog with the spec's sentence. Cancel hands focus back to the
 * card's Delete button; once the popup is gone (and its button with it), focus goes to the
 * page heading.
 */
function ConfirmDeleteDialog({ popup, onClose, heading }: { popup: AdminPopupListItem | null; onClose: () => void; heading: RefObject<HTMLHeadingElement | null> }) {
  const remove = useDeletePopup();
  const removed = useRef(false);
  return (
    <Dialog open={popup !== null} onOpenChange={(open) => !open && !remove.isPending && onClose()}>
      <DialogContent
        title={a.confirmDeleteTitle}
        description={popup ? a.confirmDelete(popup.title) : ''}
        hideClose
        onCloseAutoFocus={(event) => {
          if (!removed.current) return;
          removed.current = false;
          event.preventDefault();
          heading.current?.focus();
        }}
      >
        <div className="flex gap-3">
          <DialogClose asChild>
            <Button variant="secondary" className="flex-1" disabled={remove.isPending}>
              {a.confirmDeleteCancel}
            </Button>
          </DialogClose>
          <Button
            variant="danger"
            className="flex-1"
            disabled={remove.isPending}
            onClick={() => {
              if (!popup) return;
              remove.mutate(popup.id, {
                onSuccess: () => {
                  removed.current = true;
                  toast({ title: a.toastSuccess, description: a.deleted, variant: 'success' });
                  onClose();
                },
                onError: (err) => {
                  toast({ title: a.toastError, description: serverMessageOr(err, a.deleteFailed), variant: 'destructive' });
                  onClose();
                },
              });
            }}
          >
            {remove.isPending ? a.deleting : a.confirmDeleteAction}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

/** /admin/popups: Popup Management (spec section 2). */
export function AdminPopupsPage() {
  const { state, setState, commitSearch } = useUrlListState(readPopupListState, writePopupListState);
  const [createOpen, setCreateOpen] = useState(false);
  const [editing, setEditing] = useState<AdminPopupListItem | undefined>(undefined);
  const [deleting, setDeleting] = useState<AdminPopupListItem | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useAdminPopups(listQuery(state));
  const setActive = useSetPopupActive();

  const popups = list.data?.popups ?? [];

  function toggle(p: AdminPopupListItem) {
    setActive.mutate(
      { id: p.id, active: !p.isActive },
      {
        onSuccess: () => toast({ title: a.toastSuccess, description: a.statusUpdated, variant: 'success' }),
        onError: (err) => toast({ title: a.toastError, description: serverMessageOr(err, a.statusFailed), variant: 'destructive' }),
      },
    );
  }

  let body;
  if (list.isPending) {
    body = <LoadingState label={a.loading} rows={2} rowClassName="h-48" />;
  } else if (list.isError) {
    body = <ErrorState message={`${a.loadError}${serverMessageOr(list.error, list.error.message)}`} backTo={paths.home} backLabel={a.backToHome} home />;
  } else {
    body = (
      <>
        {popups.length === 0 ? (
          <Card className="flex flex-col items-center gap-1 py-10 text-center">
            <p className="text-lg font-semibold">{a.empty}</p>
            {state.search.trim() && <p className="text-sm text-muted">{a.emptySearchHint}</p>}
          </Card>
        ) : (
          <div className="flex flex-col gap-3" aria-busy={list.isFetching}>
            {popups.map((p) => (
              <PopupCard
                key={p.id}
                popup={p}
                statusPending={setActive.isPending}
                onEdit={() => setEditing(p)}
                onToggle={() => toggle(p)}
                onDelete={() => setDeleting(p)}
              />
            ))}
          </div>
        )}
        <p className="text-center text-sm text-muted" role="status">
          {footerText(popups.length, state)}
        </p>
      </>
    );
  }

  return (
    <PageLayout title={a.title}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-1 basis-40 flex-col gap-1">
          <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold outline-none">
            {a.title}
          </h1>
          <p className="text-sm text-muted">{a.subtitle}</p>
        </div>
        <Button size="sm" className="max-w-full shrink-0" onClick={() => setCreateOpen(true)}>
          <Plus aria-hidden />
          {a.create}
        </Button>
      </div>
      <div className="flex flex-col gap-3">
        <SearchBox value={state.search} onCommit={commitSearch} label={a.searchLabel} placeholder={a.searchPlaceholder} />
        <div className="flex flex-wrap gap-2">
          <Select
            className="flex-1 max-[16rem]:basis-full"
            aria-label={a.statusLabel}
            options={statusOptions}
            value={state.status || 'all'}
            onValueChange={(v) => setState({ ...state, status: v === 'all' ? '' : (v as PopupListState['status']) })}
          />
          <SortControls
            label={a.sortByLabel}
            options={sortOptions}
            sortBy={state.sortBy}
            sortOrder={state.sortOrder}
            onSortBy={(field) => setState(chooseSortField(state, field))}
            onToggleOrder={() => setState(toggleSortOrder(state))}
          />
        </div>
      </div>
      {body}
      <PopupFormDialog open={createOpen} onOpenChange={setCreateOpen} />
      {editing && <PopupFormDialog key={editing.id} open popup={editing} onOpenChange={(open) => !open && setEditing(undefined)} />}
      <ConfirmDeleteDialog popup={deleting} onClose={() => setDeleting(null)} heading={heading} />
    </PageLayout>
  );
}

export default AdminPopupsPage;
