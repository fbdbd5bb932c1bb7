/** A screen's visible heading and one-line introduction. */
export function PageIntro({ title, children }: { title: string; children?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <h1 className="text-2xl font-bold text-ink">{title}</h1>
      {children && <p className="text-muted">{children}</p>}
    </div>
  );
}
