// Loading and error display shared by the trading screens. docs/PRODUCT.md section 8: a table query error
// shows the server's message as an error toast; the screen also shows it in place.
import { Alert, Center, Loader } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { showToast } from '../../../app/toast';

/** The server's message without urql's "[GraphQL] " / "[Network] " prefix. */
export function errorMessage(error: CombinedError): string {
  const graphql = error.graphQLErrors[0]?.message;
  return graphql ?? error.networkError?.message ?? error.message;
}

/** Toasts each new error once. */
export function useErrorToast(error: CombinedError | undefined): void {
  const message = error ? errorMessage(error) : undefined;
  useEffect(() => {
    if (message) showToast('error', message);
  }, [message]);
}

export interface QueryStateProps {
  readonly fetching: boolean;
  readonly error: CombinedError | undefined;
  /** True once data has arrived (a refetch keeps showing it). */
  readonly hasData: boolean;
  readonly title?: string;
  readonly children: ReactNode;
}

/** Renders a loader until data arrives, the error in an Alert (and a toast), else the children. */
export function QueryState({ fetching, error, hasData, title, children }: QueryStateProps) {
  useErrorToast(error);
  if (error) {
    return (
      <Alert color="red" title={title ?? 'Could not load the data'} role="alert">
        {errorMessage(error)}
      </Alert>
    );
  }
  if (fetching && !hasData) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  return <>{children}</>;
}
