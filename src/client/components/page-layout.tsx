import { type ComponentType, type ReactNode, createContext, useContext } from 'react';
import { cn } from '../lib/cn';

export interface PageHeaderProps {
  title?: string | undefined;
  /** Controls before the menu (the second header variant). */
  extra?: ReactNode;
}

/**
 * The app's header and what a layout route puts at the top of every page (the admin bar).
 * The app layer provides them, so this template stays free of app and feature code.
 */
export const PageChromeContext = createContext<{ Header: ComponentType<PageHeaderProps>; lead?: ReactNode }>({ Header: () => null });

interface PageLayoutProps {
  /** Page title shown under the product title in the header. */
  title?: string | undefined;
  /** Replaces the standard header (or `null` for none). */
  header?: ReactNode;
  /** Controls in the standard header, before the menu. */
  headerExtra?: ReactNode;
  children: ReactNode;
  /** Sticky bottom actions area. */
  actions?: ReactNode;
  /** Rendered below everything, e.g. the member tab bar. */
  footer?: ReactNode;
  className?: string;
}

/** Spec layout: a single narrow column with an optional header and sticky bottom actions. */
export function PageLayout({ title, header, headerExtra, children, actions, footer, className }: PageLayoutProps) {
  const { Header, lead } = useContext(PageChromeContext);
  return (
    <div className="flex min-h-[calc(100dvh-var(--tab-bar-height,0px))] flex-col">
      {header === undefined ? <Header title={title} extra={headerExtra} /> : header}
      <main id="main" className={cn('mx-auto flex w-full max-w-md flex-1 flex-col gap-4 px-4 py-5', className)}>
        {lead}
        {children}
      </main>
      {actions && (
        <div data-page-actions className="sticky bottom-[var(--tab-bar-height,0px)] z-20 border-t border-line bg-surface/95 backdrop-blur">
          <div className="mx-auto flex max-w-md gap-3 px-4 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">{actions}</div>
        </div>
      )}
      {footer}
    </div>
  );
}
