// The exchange and time-zone preference (docs/PRODUCT.md sections 3 and 9), opened from the account menu:
// the choices come from the exchanges query (every zone), picking an exchange sets its tz, and a
// time zone offers only its own exchanges. Saving stores `timezone` in the user's global
// preferences and then the app store's time-zone object (which other tabs see), and loads the
// new zone's exchange rows for this tab's screens.
// Invariants: nothing is stored when the save fails; the signed-in user's own preferences only
// (the menu hides this while acting for a managed user).
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { graphqlClient } from '../graphql/graphql-client';
import { saveGlobalPreferences } from '../preferences/preferences';
import { useAppStore, type TimeZoneSetting } from '../stores/app-store';
import {
  ALL_EXCHANGES, currencyText, exchangesOfTz, marketHoursText, selectedExchange, settingForExchange, settingForTz, tzChoices, zoneOfTz,
  type ExchangeRow,
} from './exchange';
import { useExchangeRows } from './use-exchange';

function ExchangeForm({ userId, onDone }: { readonly userId: string; readonly onDone: () => void }) {
  const [result] = useQuery<{ exchanges: ExchangeRow[] }>({ query: ALL_EXCHANGES, requestPolicy: 'cache-and-network' });
  const rows = result.data?.exchanges ?? [];
  const stored = useAppStore((state) => state.timeZone);
  const [draft, setDraft] = useState<TimeZoneSetting | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const shown = selectedExchange(rows, stored);
  const current = draft ?? (rows.length === 0 ? stored : { exchange: shown.exchange, tz: shown.tz });
  const chosen = current === undefined ? undefined : rows.find((row) => row.exchange === current.exchange);
  const unchanged = current !== undefined && stored !== undefined && current.exchange === stored.exchange && current.tz === stored.tz;
  const save = async (): Promise<void> => {
    if (current === undefined) return;
    setSaving(true);
    const saved = await saveGlobalPreferences(graphqlClient(), { userId, changes: { timezone: current } });
    setSaving(false);
    if (!saved) return;
    const zone = chosen?.zone ?? zoneOfTz(current.tz);
    useExchangeRows.getState().setRows(rows.filter((row) => row.zone === zone));
    useAppStore.getState().setTimeZone(current);
    onDone();
  };
  if (result.error) return <Text c="red" size="sm">{result.error.message}</Text>;
  if (rows.length === 0) return <Text size="sm" c="dimmed">Loading the exchanges…</Text>;
  return (
    <Stack gap="sm">
      <Select
        label="Time zone"
        data={tzChoices(rows)}
        value={current?.tz ?? null}
        allowDeselect={false}
        onChange={(tz) => tz !== null && setDraft(settingForTz(rows, tz, current))}
        data-testid="timezone-select"
      />
      <Select
        label="Exchange"
        data={exchangesOfTz(rows, current?.tz ?? '').map((row) => ({ value: row.exchange, label: row.exchange }))}
        value={current?.exchange ?? null}
        allowDeselect={false}
        onChange={(exchange) => exchange !== null && setDraft(settingForExchange(rows, exchange))}
        data-testid="exchange-select"
      />
      {chosen && (
        <Text size="sm" c="dimmed" data-testid="exchange-preview">
          Market hours {marketHoursText(chosen)} · currency {currencyText(chosen)} ({chosen.locale})
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>Cancel</Button>
        <Button onClick={() => void save()} loading={saving} disabled={unchanged || current === undefined} data-testid="exchange-save">Save</Button>
      </Group>
    </Stack>
  );
}

/** The preference dialog; the form mounts only while open, so each opening starts from the stored setting. */
export function ExchangeSettings({ userId, opened, onClose }: { readonly userId: string; readonly opened: boolean; readonly onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Exchange and time zone" centered>
      {opened && <ExchangeForm userId={userId} onDone={onClose} />}
    </Modal>
  );
}
