import { Component, type ReactNode } from 'react';
import { common } from '#shared/messages/common';
import { paths } from '#shared/paths';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';

interface Props {
  /** A new value (the next path) clears the error, as the data router's error state did. */
  resetKey: string;
  children: ReactNode;
}

/**
 * A screen that throws, or whose chunk cannot be fetched (say, after a new release), shows the
 * generic error instead of a blank page; Home reloads the app from the server.
 */
export class RouteErrorBoundary extends Component<Props, { error: unknown; key: string }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown') };
  }

  static getDerivedStateFromProps(props: Props, state: { error: unknown; key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <main id="main" className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-4 px-4">
        <Alert>{common.genericError}</Alert>
        <Button variant="secondary" asChild>
          <a href={paths.root}>{common.home}</a>
        </Button>
      </main>
    );
  }
}
