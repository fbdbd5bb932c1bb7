import { Component, type ReactNode } from 'react';
import { RouteErrorPage } from './app-error-page';

interface Props {
  /** A new value (the next path) clears the error, as the data router's error state did. */
  resetKey: string;
  children: ReactNode;
}

/**
 * A screen that throws, or whose chunk cannot be fetched (say, after a new release), shows the
 * app's error page (header, the generic error, Home) instead of a blank page.
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
    return <RouteErrorPage />;
  }
}
