// The market-holiday notice: the next holiday of the user's exchange within a week, dismissible
// for the rest of the sign-in (sign-out re-enables it: docs/PRODUCT.md section 4).
import { Alert } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from 'urql';
import { HOLIDAY_NOTICE_DISMISSED_KEY } from '../app/sign-out';
import { useAppStore } from '../stores/app-store';
import { istToday } from '../format/date-ranges';

const UPCOMING_HOLIDAYS = `query UpcomingHolidays($exchange: String!, $from: date!, $to: date!) {
  holidays(where: { exchange: { _eq: $exchange }, date: { _gte: $from, _lte: $to } }, order_by: { date: asc }, limit: 1) { date event exchange }
}`;

const WEEK_MS = 7 * 86_400_000;

export function HolidayNotice() {
  const exchange = useAppStore((state) => state.timeZone?.exchange ?? 'NSE');
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(HOLIDAY_NOTICE_DISMISSED_KEY) !== null);
  const from = istToday();
  const to = istToday(Date.now() + WEEK_MS);
  const [result] = useQuery<{ holidays: Array<{ date: string; event: string }> }>({ query: UPCOMING_HOLIDAYS, variables: { exchange, from, to }, pause: dismissed });
  const next = result.data?.holidays[0];
  if (dismissed || !next) return null;
  return (
    <Alert
      color="blue"
      mb="md"
      title={`${exchange} is closed on ${next.date}`}
      withCloseButton
      closeButtonLabel="Dismiss"
      onClose={() => {
        localStorage.setItem(HOLIDAY_NOTICE_DISMISSED_KEY, new Date().toISOString());
        setDismissed(true);
      }}
      data-testid="holiday-notice"
    >
      {next.event}
    </Alert>
  );
}
