import { useEffect, useState, type ReactNode } from 'react';
import { Provider } from 'urql';
import { graphqlClient, onGraphqlClientChange } from './graphql-client';

/** Provides the current urql client; a restart (sign-in, sign-out, managed-user switch) swaps it. */
export function GraphqlProvider({ children }: { readonly children: ReactNode }) {
  const [client, setClient] = useState(graphqlClient);
  useEffect(() => onGraphqlClientChange(setClient), []);
  return <Provider value={client}>{children}</Provider>;
}
