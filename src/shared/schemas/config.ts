import { z } from 'zod';

/** What the browser may know of the runtime configuration (GET /api/config). */
export const PublicConfigSchema = z.object({
  brandName: z.string(),
  brandLogoUrl: z.string(),
  brandPrimaryColor: z.string(),
  vitalScanUrl: z.string(),
  wellnessProgramUrl: z.string(),
  helpVideoIds: z.array(z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
