// How a research screen reports a failed GraphQL operation (docs/PRODUCT.md section 8): the server's message
// as an error toast, once per distinct message, and an Alert in place of the content.
import { Alert } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { CombinedError } from 'urql';
import { showToast } from '../../../app/toast';

/** The server's own message: the first GraphQL error, else the network error, without urql's prefix. */
export function errorMessage(error: CombinedError): string {
  const first = error.graphQLErrors[0];
  if (first !== undefined) return first.message;
  return error.networkError?.message ?? error.message.replace(/^\[(GraphQL|Network)\]\s*/, '');
}

/** Shows an error toast when `error` carries a message not toasted just before. */
export function useErrorToast(error: CombinedError | undefined): void {
  const last = useRef<string | undefined>(undefined);
  const message = error === undefined ? undefined : errorMessage(error);
  useEffect(() => {
    if (message !== undefined && message !== last.current) showToast('error', message);
    last.current = message;
  }, [message]);
}

/** The Alert shown where a failed query's content would be; nothing without an error. */
export function QueryError({ error, title = 'Could not load' }: { readonly error: CombinedError | undefined; readonly title?: string }) {
  useErrorToast(error);
  if (error === undefined) return null;
  return (
    <Alert color="red" title={title} variant="light">
      {errorMessage(error)}
    </Alert>
  );
}
