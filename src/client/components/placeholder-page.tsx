import { Construction } from 'lucide-react';
import { common } from '../lib/messages/common';
import { BackActions } from './back-actions';
import { PageLayout } from './page-layout';
import { Card } from './ui/card';

export interface PlaceholderPageProps {
  title: string;
  description: string;
  /** The 'Coming Soon' list of planned features. */
  features?: readonly string[];
  /** Where Go Back leads. */
  backTo: string;
}

/** The coming-soon template (spec: Placeholder page template). */
export function PlaceholderPage({ title, description, features, backTo }: PlaceholderPageProps) {
  return (
    <PageLayout title={title} actions={<BackActions backTo={backTo} />}>
      <Card className="flex flex-col gap-3">
        <div className="flex size-12 items-center justify-center rounded-2xl bg-brand-soft text-brand-ink">
          <Construction className="size-6" aria-hidden />
        </div>
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="text-muted">{description}</p>
        <p className="rounded-xl bg-warning-soft px-4 py-3 text-sm text-warning">{common.underDevelopment}</p>
      </Card>
      {features && features.length > 0 && (
        <Card>
          <h2 className="mb-3 text-lg font-semibold">{common.comingSoon}</h2>
          <ul className="flex list-disc flex-col gap-2 pl-5 text-muted">
            {features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </Card>
      )}
    </PageLayout>
  );
}
