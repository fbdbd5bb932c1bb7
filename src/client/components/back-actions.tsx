import { ArrowLeft, Home } from 'lucide-react';
import { Link } from 'react-router';
import { common } from '../lib/messages/common';
import { paths } from '#shared/paths';
import { Button } from './ui/button';

/** The sticky Go Back (and optional Home) pair most screens end with. */
export function BackActions({ backTo, home = true }: { backTo: string; home?: boolean }) {
  return (
    <>
      <Button variant="secondary" className="flex-1" asChild>
        <Link to={backTo}>
          <ArrowLeft aria-hidden />
          {common.goBack}
        </Link>
      </Button>
      {home && (
        <Button className="flex-1" asChild>
          <Link to={paths.home}>
            <Home aria-hidden />
            {common.home}
          </Link>
        </Button>
      )}
    </>
  );
}
