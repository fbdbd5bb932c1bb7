import type { ComponentProps } from 'react';
import { cn } from '../lib/cn';
import { t } from '../lib/i18n';

interface ExternalLinkProps extends Omit<ComponentProps<'a'>, 'href' | 'target' | 'rel'> {
  /** An external site from runtime configuration; empty while the configuration loads. */
  href: string;
}

/**
 * A link to another site: always a new tab, never handing it our window (noopener) or the
 * page address (noreferrer). Until the address is known it renders as a disabled link.
 */
export function ExternalLink({ href, children, className, ...props }: ExternalLinkProps) {
  if (!href) {
    return (
      <a role="link" aria-disabled="true" className={cn(className, 'cursor-not-allowed opacity-60')} {...props}>
        {children}
      </a>
    );
  }
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className} {...props}>
      {children}
      <span className="sr-only"> {t.members.tabBar.opensNewTab}</span>
    </a>
  );
}
