// The signed-in user's (or the managed user's) own licences and credits on /users/edit: the
// utilisation figures and alerts of docs/PRODUCT.md sections 3 and 4, live from the `licences`
// view (a grant made by an administrator shows here at once).
import { Text } from '@mantine/core';
import { useSubscription } from 'urql';
import { QueryState } from '../../trading/parts/QueryState';
import { LicenceFigures } from './LicenceFigures';
import { OWN_LICENCES_SUBSCRIPTION, type LicenceRow } from './user-admin-documents';

export function OwnLicencesSection({ userId }: { readonly userId: string }) {
  const [result] = useSubscription<{ licences: LicenceRow[] }>({ query: OWN_LICENCES_SUBSCRIPTION, variables: { userId } });
  return (
    <QueryState fetching={result.fetching} error={result.error} hasData={result.data !== undefined} title="Could not load your licences">
      <Text size="sm" c="dimmed" mb="sm">Credits count until their expiry date. Ask an administrator for more credits or licence slots.</Text>
      <LicenceFigures licences={result.data?.licences ?? []} />
    </QueryState>
  );
}
