import { Pencil, Plus, Power, PowerOff, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { paths } from '#shared/paths';
import { type AdminPopupListItem, POPUP_SORT_FIELDS, type PopupSortField, type PopupTheme } from '#shared/schemas/popups';
import { IconButton } from '../../../components/icon-button';
import { ErrorState, LoadingState } from '../../../components/load-states';
import { PageLayout } from '../../../components/page-layout';
import { SearchBox } from '../../../components/search-box';
import { SortControls } from '../../../components/sort-controls';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Select } from '../../../components/ui/select';
import { toast } from '../../../components/ui/use-toast';
import { serverMessageOr } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { chooseSortField, toggleSortOrder, useUrlListState } from '../../../lib/list-state';
import { footerText, formatActivePeriod, listQuery, type PopupListState, readPopupListState, writePopupListState } from '../admin-popup-view';
import { useAdminPopups, useDeletePopup, useSetPopupActive } from '../api/admin-popups';
import { PopupFormDialog } from './popup-form-dialog';

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

/** One popup: every field, the three counters, and edit / activate-deactivate / delete. */
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
  return (
    <Card className="flex flex-col gap-3 p-4" aria-labelledby={`popup-${popup.id}-title`} data-testid="popup-card">
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="neutral">
            <span className={cn('size-2.5 rounded-full', themeSwatch[popup.theme])} aria-hidden />
            {a.themes[popup.theme]}
          </Badge>
          <Badge variant={popup.isActive ? 'success' : 'neutral'}>{popup.isActive ? a.active : a.inactive}</Badge>
        </div>
        <h2 id={`popup-${popup.id}-title`} className="text-lg leading-snug font-bold break-words text-ink">
          {popup.title}
        </h2>
        <p className="line-clamp-2 text-sm break-words text-muted">{popup.message}</p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted">{a.target}</dt>
        <dd className="font-medium">{a.targets[popup.target]}</dd>
        <dt className="text-muted">{a.priority}</dt>
        <dd className="font-medium">{popup.priority}</dd>
        <dt className="text-muted">{a.maxSnoozes}</dt>
        <dd className="font-medium">{popup.maxSnoozes}</dd>
        <dt className="text-muted">{a.recurrence}</dt>
        <dd className="font-medium break-words">{recurrence}</dd>
        <dt className="text-muted">{a.activePeriod}</dt>
        <dd className="font-medium">{formatActivePeriod(popup)}</dd>
      </dl>
      <ul className="grid grid-cols-3 gap-2 text-center text-sm" aria-label={a.statistics}>
        {[a.shows(s.totalShows), a.snoozes(s.totalSnoozes), a.completed(s.totalCompletions)].map((label) => (
          <li key={label} className="rounded-xl bg-canvas px-2 py-2 font-semibold text-ink">
            {label}
          </li>
        ))}
      </ul>
      <div className="flex justify-end gap-2 border-t border-line pt-3">
        <IconButton label={a.edit(popup.title)} onClick={onEdit}>
          <Pencil aria-hidden />
        </IconButton>
        <IconButton label={popup.isActive ? a.deactivate(popup.title) : a.activate(popup.title)} disabled={statusPending} onClick={onToggle}>
          {popup.isActive ? <PowerOff aria-hidden /> : <Power aria-hidden />}
        </IconButton>
        <IconButton className="text-danger" label={a.delete(popup.title)} onClick={onDelete}>
          <Trash2 aria-hidden />
        </IconButton>
      </div>
    </Card>
  );
}

/** /admin/popups: Popup Management (spec section 2). */
export function AdminPopupsPage() {
  const { state, setState, commitSearch } = useUrlListState(readPopupListState, writePopupListState);
  const [createOpen, setCreateOpen] = useState(false);
  const [editing, setEditing] = useState<AdminPopupListItem | undefined>(undefined);
  const list = useAdminPopups(listQuery(state));
  const setActive = useSetPopupActive();
  const remove = useDeletePopup();


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

  function confirmDelete(p: AdminPopupListItem) {
    if (!window.confirm(a.confirmDelete(p.title))) return;
    remove.mutate(p.id, {
      onSuccess: () => toast({ title: a.toastSuccess, description: a.deleted, variant: 'success' }),
      onError: (err) => toast({ title: a.toastError, description: serverMessageOr(err, a.deleteFailed), variant: 'destructive' }),
    });
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
                onDelete={() => confirmDelete(p)}
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
      <div className="flex items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold">{a.title}</h1>
          <p className="text-sm text-muted">{a.subtitle}</p>
        </div>
        <Button size="sm" className="shrink-0" onClick={() => setCreateOpen(true)}>
          <Plus aria-hidden />
          {a.create}
        </Button>
      </div>
      <div className="flex flex-col gap-3">
        <SearchBox value={state.search} onCommit={commitSearch} label={a.searchLabel} placeholder={a.searchPlaceholder} />
        <div className="flex gap-2">
          <Select
            className="flex-1"
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
    </PageLayout>
  );
}

export default AdminPopupsPage;
