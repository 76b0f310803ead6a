import { Component, Suspense, lazy, useState, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle, Spinner } from '@fluentui/react-components';
import type { RemoteProps } from '@mailroom/mf-contract';
import { REMOTES, type ExtraArea, type RemoteName } from '@mailroom/mf-contract/remotes';
import type { RemoteLoader } from './federation';

type RemoteApp = ComponentType<RemoteProps>;
const loaded = new WeakMap<RemoteLoader, Map<RemoteName, RemoteApp>>();

/** One lazy component per remote and loader, so coming back to an area does not suspend again. */
function lazyRemoteApp(loader: RemoteLoader, name: RemoteName, retry: boolean): RemoteApp {
  let apps = loaded.get(loader);
  if (!apps) loaded.set(loader, (apps = new Map()));
  let app = apps.get(name);
  if (!app || retry) {
    app = lazy(() => loader(name, { retry }));
    apps.set(name, app);
  }
  return app;
}

interface BoundaryProps {
  title: string;
  onRetry: () => void;
  children: ReactNode;
}

/** Keeps a remote's failure (loading or rendering) inside its own area. */
class RemoteErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`The ${this.props.title} area failed`, error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <MessageBar intent="error" layout="multiline" role="alert">
        <MessageBarBody>
          <MessageBarTitle>The {this.props.title} area could not be loaded.</MessageBarTitle>
          The rest of Mailroom works as usual; try again in a moment.
        </MessageBarBody>
        <MessageBarActions>
          <Button onClick={this.props.onRetry}>Retry</Button>
        </MessageBarActions>
      </MessageBar>
    );
  }
}

/**
 * One remote's area (or one of its extra areas): loads its './App' on first display, shows a spinner meanwhile and an error
 * panel with Retry when it cannot be loaded or throws; the drawer, quota bar and other areas go on.
 */
export function RemoteArea({
  name,
  loader,
  props,
  area,
}: {
  name: RemoteName;
  loader: RemoteLoader;
  props: Omit<RemoteProps, 'basePath'>;
  /** An extra area of the remote (EXTRA_AREAS): mounted at its path, under its title. */
  area?: Pick<ExtraArea, 'basePath' | 'title'>;
}) {
  const { title, basePath } = area ?? REMOTES[name];
  const [attempt, setAttempt] = useState(0);
  const [App, setApp] = useState(() => lazyRemoteApp(loader, name, false));
  const retry = () => {
    setApp(() => lazyRemoteApp(loader, name, true));
    setAttempt((count) => count + 1);
  };
  return (
    <RemoteErrorBoundary key={attempt} title={title} onRetry={retry}>
      <Suspense fallback={<Spinner label={`Loading ${title}...`} />}>
        <App {...props} basePath={basePath} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
