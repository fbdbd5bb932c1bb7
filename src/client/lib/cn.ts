import { type ClassValue, clsx } from 'clsx';
import { createTailwindMerge } from 'tailwind-merge';
import { tailwindMergeConfig } from './tailwind-merge-config';

/**
 * tailwind-merge with only the class groups this app's sources use (tailwind-merge-config.ts,
 * generated and checked against the full twMerge by cn.test.ts): its full configuration would
 * be about 7 KiB of every page's first download.
 */
const merge = createTailwindMerge(tailwindMergeConfig);

/** Joins class names, letting later Tailwind utilities win over earlier ones. */
export function cn(...inputs: ClassValue[]) {
  return merge(clsx(inputs));
}
