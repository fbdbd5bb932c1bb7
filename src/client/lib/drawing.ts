import { createContext } from 'react';

/**
 * True while the build draws a screen into its HTML (app/static-screen.tsx, for
 * scripts/prerender.mjs): a part that depends on the member draws itself for every member at
 * once, for the page's own script to finish before the first paint (lib/drawn-banner.ts).
 */
export const Drawing = createContext(false);
