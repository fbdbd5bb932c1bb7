import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '#shared/paths';
import { HipaaNote } from '../../../components/hipaa-note';
import { PageLayout } from '../../../components/page-layout';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { t } from '../../../lib/i18n';

const w = t.auth.welcome;

/** /start: the welcome screen. */
export function WelcomePage() {
  return (
    <PageLayout title={w.title}>
      <Card className="flex flex-col gap-4">
        <h1 className="text-2xl font-bold">{w.title}</h1>
        <p className="text-muted">{w.body}</p>
        <Button size="lg" asChild>
          <Link to={paths.home}>
            {w.start}
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      </Card>
      <HipaaNote>{w.hipaa}</HipaaNote>
    </PageLayout>
  );
}
