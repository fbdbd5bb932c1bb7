import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react';
import type { SortOrder } from '#shared/schemas/common';
import { t } from '../lib/i18n';
import { IconButton } from './icon-button';
import { Select } from './ui/select';

interface SortControlsProps<F extends string> {
  /** The select's accessible name ('Sort by'). */
  label: string;
  options: readonly { value: F; label: string }[];
  sortBy: F;
  sortOrder: SortOrder;
  onSortBy: (field: F) => void;
  onToggleOrder: () => void;
}

/** An admin list's sort field select and its direction toggle (spec: sort-direction toggle). */
export function SortControls<F extends string>({ label, options, sortBy, sortOrder, onSortBy, onToggleOrder }: SortControlsProps<F>) {
  return (
    <>
      <Select className="flex-1" aria-label={label} options={options} value={sortBy} onValueChange={(v) => onSortBy(v as F)} />
      <IconButton variant="secondary" className="shrink-0 rounded-xl" label={t.admin.sortOrder[sortOrder]} onClick={onToggleOrder}>
        {sortOrder === 'asc' ? <ArrowUpNarrowWide aria-hidden /> : <ArrowDownWideNarrow aria-hidden />}
      </IconButton>
    </>
  );
}
