import { ChevronRight, ExternalLink as ExternalIcon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cn } from '../lib/cn';
import { ExternalLink } from './external-link';

interface TileContent {
  title: string;
  description?: string;
  icon: LucideIcon;
  className?: string;
}

type ActionTileProps = TileContent &
  (
    | {
        /** An in-app path, or with `external` a full URL opened in a new tab. */
        to: string;
        external?: boolean;
        onSelect?: never;
      }
    | {
        /** A tile that acts in place instead of leading anywhere. */
        onSelect: () => void;
        to?: never;
        external?: never;
      }
  );

const tileClass =
  'group flex min-h-16 items-center gap-4 rounded-2xl border border-line bg-surface p-4 text-left shadow-sm transition-colors hover:border-brand/40 hover:bg-brand-soft/60 active:bg-brand-soft max-[16rem]:gap-2 max-[16rem]:p-3';

function TileBody({ title, description, icon: Icon, trailing }: { title: string; description?: string | undefined; icon: LucideIcon; trailing: ReactNode }) {
  return (
    <>
      {/* Decorative: on the narrowest screens (a phone at 200% zoom) the words get its room. */}
      <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-soft text-brand-ink max-[16rem]:hidden">
        <Icon className="size-6" aria-hidden />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-0.5 wrap-break-word">
        <span className="text-base font-semibold text-ink">{title}</span>
        {description && <span className="text-sm text-muted">{description}</span>}
      </span>
      {trailing}
    </>
  );
}

/** A large tappable row leading to a screen or an external site, or acting in place. */
export function ActionTile({ title, description, icon, to, external, onSelect, className }: ActionTileProps) {
  if (onSelect) {
    return (
      <button type="button" onClick={onSelect} className={cn(tileClass, 'w-full', className)}>
        <TileBody title={title} description={description} icon={icon} trailing={null} />
      </button>
    );
  }
  if (external) {
    return (
      <ExternalLink href={to} className={cn(tileClass, className)}>
        <TileBody title={title} description={description} icon={icon} trailing={<ExternalIcon className="size-5 shrink-0 text-muted" aria-hidden />} />
      </ExternalLink>
    );
  }
  return (
    <Link to={to} className={cn(tileClass, className)}>
      <TileBody title={title} description={description} icon={icon} trailing={<ChevronRight className="size-5 shrink-0 text-muted transition-transform group-hover:translate-x-0.5" aria-hidden />} />
    </Link>
  );
}
