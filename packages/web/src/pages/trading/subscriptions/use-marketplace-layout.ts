// The marketplace layout preference (docs/PRODUCT.md section 2: application preferences,
// subcategory marketplace, marketplaceLayout; grid by default), read from user_app_configs and
// saved with the same append the settings use.
import { useCallback, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { showToast } from '../../../app/toast';
import { APPEND_APP_CONFIG, USER_APP_CONFIGS } from '../../../graphql/documents';
import { DEFAULT_MARKETPLACE, type MarketplacePreferences } from '../../../preferences/preferences';

type Layout = MarketplacePreferences['marketplaceLayout'];

interface ConfigRow {
  readonly category: string;
  readonly subcategory: string;
  readonly user_id: string;
  readonly meta_data: Record<string, unknown> | null;
}

export function useMarketplaceLayout(userId: string): { layout: Layout; setLayout: (layout: Layout) => void } {
  const [result] = useQuery<{ user_app_configs: ConfigRow[] }>({ query: USER_APP_CONFIGS });
  const [, append] = useMutation(APPEND_APP_CONFIG);
  const [chosen, setChosen] = useState<Layout | undefined>(undefined);
  const saved = result.data?.user_app_configs
    .find((row) => row.user_id === userId && row.category === 'application' && row.subcategory === 'marketplace')?.meta_data?.marketplaceLayout;
  const layout: Layout = chosen ?? (saved === 'list' || saved === 'grid' ? saved : DEFAULT_MARKETPLACE.marketplaceLayout);
  const setLayout = useCallback((next: Layout) => {
    setChosen(next);
    void append({ category: 'application', subcategory: 'marketplace', userId, metaData: { marketplaceLayout: next } }).then((saving) => {
      if (saving.error) showToast('error', saving.error.message);
    });
  }, [append, userId]);
  return { layout, setLayout };
}
