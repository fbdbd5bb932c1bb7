import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ReactNode, createContext, useContext, useDeferredValue, useEffect, useMemo } from 'react';
import type { PublicConfig } from '#shared/schemas/config';
import { apiGet } from '../../lib/api-client';
import { CONFIG_KEY } from '../../lib/query-scopes';


const fallback: PublicConfig = {
  brandName: 'Wellhaven',
  brandLogoUrl: '/logo.svg',
  brandPrimaryColor: '#0f766e',
  vitalScanUrl: '',
  wellnessProgramUrl: '',
  helpVideoIds: [],
};

type ConfigValue = PublicConfig & { isLoading: boolean };

/** GET /api/config: read by the provider, and asked for before the first render (app/first-reads.ts). */
export const configQueryOptions = queryOptions({
  queryKey: CONFIG_KEY,
  queryFn: () => apiGet<PublicConfig>('/api/config', { on401: 'returnNull' }),
});

const toValue = (data: PublicConfig | null | undefined, isLoading: boolean): ConfigValue => ({ ...(data ?? fallback), isLoading });

/** The configuration the provider hands down; null outside it. */
const ConfigContext = createContext<ConfigValue | null>(null);

/**
 * Reads the runtime configuration once for everything below. When its answer arrives (just
 * after the first screen has been drawn), only this provider re-renders at once; the screens
 * that read it follow in a transition (useDeferredValue), which React splits into slices of a
 * few milliseconds, where each of them reading the query itself re-rendered the whole screen
 * in one task.
 */
export function ConfigProvider({ children }: { children: ReactNode }) {
  const query = useQuery(configQueryOptions);
  const value = useMemo(() => toValue(query.data, query.isLoading), [query.data, query.isLoading]);
  return <ConfigContext value={useDeferredValue(value)}>{children}</ConfigContext>;
}

/** Runtime configuration (brand, external links); rebranding needs a restart, not a rebuild. */
export function useConfig(): ConfigValue {
  const provided = useContext(ConfigContext);
  // Outside the provider (a screen rendered on its own): its own subscription. Inside it, the
  // query is only observed, never re-rendering this component itself (`notifyOnChangeProps: []`).
  const own = useQuery({ ...configQueryOptions, notifyOnChangeProps: provided ? [] : undefined });
  return provided ?? toValue(own.data, own.isLoading);
}

/** Applies the brand colour and name to the document once the configuration arrives. */
export function useApplyBrand() {
  const { brandPrimaryColor, brandName, isLoading } = useConfig();
  useEffect(() => {
    if (isLoading) return;
    document.documentElement.style.setProperty('--brand', brandPrimaryColor);
    document.title = brandName;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', brandPrimaryColor);
  }, [brandPrimaryColor, brandName, isLoading]);
}
