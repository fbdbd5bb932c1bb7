import { ShieldCheck } from 'lucide-react';

/** The privacy note shown on health screens and the ID card. */
export function HipaaNote({ children }: { children: string }) {
  return (
    <div className="flex items-start gap-3 rounded-2xl bg-brand-soft p-4 text-sm text-brand-ink" role="note">
      <ShieldCheck className="mt-0.5 size-5 shrink-0" aria-hidden />
      <p>{children}</p>
    </div>
  );
}
