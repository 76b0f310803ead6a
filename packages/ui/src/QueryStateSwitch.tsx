import { Spinner } from '@fluentui/react-components';
import { errorMessage } from '@mailroom/api-client';
import type { ReactNode } from 'react';
import { EmptyState, type EmptyStateProps } from './EmptyState';
import { ErrorPanel } from './ErrorPanel';

/** The part of a TanStack Query result the switch reads. */
export interface QueryStateLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
  refetch: () => unknown;
}

export interface QueryStateSwitchProps<T> {
  query: QueryStateLike<T>;
  /** The spinner's text, e.g. 'Loading audiences...'. */
  loadingLabel: string;
  /** The error panel's title, also the message when the server sent none. */
  errorTitle: string;
  /** When given with `empty`, data it accepts shows the empty state instead of the content. */
  isEmpty?: (data: T) => boolean;
  empty?: EmptyStateProps;
  children: (data: T) => ReactNode;
}

/** What a screen shows for one query: a spinner, an error panel with Retry, an empty state, or the content. */
export function QueryStateSwitch<T>({ query, loadingLabel, errorTitle, isEmpty, empty, children }: QueryStateSwitchProps<T>) {
  if (query.isPending) return <Spinner label={loadingLabel} />;
  if (query.isError || query.data === undefined) {
    return <ErrorPanel title={errorTitle} message={errorMessage(query.error, errorTitle)} onRetry={() => void query.refetch()} />;
  }
  if (empty && isEmpty?.(query.data)) return <EmptyState {...empty} />;
  return <>{children(query.data)}</>;
}
