import { Alert, Anchor, Code, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { currentBrand } from '../../app/brand';
import { Section } from './Section';

// The rows of the `brokers` table (migration 0003). The list in the account screen is read from
// the database and is the one that counts; this page describes them for visitors. Only Zerodha has
// a login adapter today (packages/server/src/brokers/README.md): the others can be recorded.
const BROKERS: ReadonlyArray<{ readonly name: string; readonly login: boolean }> = [
  { name: 'Zerodha (Kite Connect)', login: true },
  ...['Upstox', 'Angel One (SmartAPI)', 'Fyers', 'Dhan', 'ICICI Direct (Breeze)', 'Kotak Neo', 'Alice Blue', '5paisa',
    'Shoonya (Finvasia)', 'IIFL Securities', 'Motilal Oswal'].map((name) => ({ name, login: false })),
];

/** '/brokersInfo': what works today, which brokers, how an account is connected, and the rules live orders will follow. */
export function Component() {
  const brand = currentBrand();
  return (
    <Stack gap="xl" maw={860} py="md">
      <Stack gap="xs">
        <Title order={1}>Connecting your broker</Title>
        <Text c="dimmed">
          Backtests and charts need no broker. Trading will send orders to your own account at your broker through the
          broker’s official trading API. Your money and your holdings stay with the broker; {brand.name} will place and
          cancel orders, and nothing else: broker APIs cannot withdraw funds or transfer securities.
        </Text>
      </Stack>

      <Alert variant="light" color="yellow" title="What works today" data-testid="live-trading-status">
        <List size="sm" spacing={4}>
          <List.Item>
            <Text fw={600} span>Works:</Text> backtests and charts; recording your broker accounts; the daily Zerodha (Kite
            Connect) login, which stores that day’s access token encrypted and confirms the client id is yours.
          </List.Item>
          <List.Item>
            <Text fw={600} span>Not yet:</Text> paper trading and live trading. Deploying a strategy comes in a later release;
            until then no order reaches a broker. Logging in to brokers other than Zerodha is not supported yet.
          </List.Item>
        </List>
      </Alert>

      <Section title="Brokers">
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="xs">
          {BROKERS.map((broker) => (
            <Paper key={broker.name} withBorder px="sm" py={6} radius="sm">
              <Text size="sm">{broker.name}</Text>
              <Text size="xs" c="dimmed">{broker.login ? 'Daily login works' : 'Recorded only: login not yet supported'}</Text>
            </Paper>
          ))}
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          When you add a broker account you choose from the brokers that are switched on at that moment. A broker whose
          connection is being repaired after an API change is switched off until it works again.
        </Text>
      </Section>

      <Section title="How connecting works">
        <List type="ordered" spacing="sm" size="sm">
          <List.Item>
            <Text fw={600} span>Create an API app at your broker.</Text>{' '}
            In the broker’s developer console (for Zerodha, the Kite Connect console) create an app. The broker gives you an
            API key and an API secret. Set the app’s redirect URL to
            <Code block my="xs">{'https://<this site>/api/broker_login/{broker}/{client_id}'}</Code>
            with your broker’s name and your client id, for example <Code>/api/broker_login/zerodha/AB1234</Code>.
          </List.Item>
          <List.Item>
            <Text fw={600} span>Add the account in {brand.name}.</Text>{' '}
            Under your profile, add a broker account with the client id, the API key and the API secret, and the amount you
            invest through it. The API key is not a secret (it appears in the broker’s login address). The API secret is
            encrypted on our server with AES-256-GCM before it reaches the database, under a key kept outside the database.
            Nobody can read it back: not you, not support, not an administrator. To change it, enter a new one.
          </List.Item>
          <List.Item>
            <Text fw={600} span>Log in at the broker every trading day (Zerodha today).</Text>{' '}
            The “Log in to broker” button takes you to your broker’s own login page, where you sign in with your broker password and
            two-factor code ({brand.name} never asks for either). The broker then sends you back to the redirect URL above,
            some brokers with a one-time <Code>code</Code> (Kite calls it a request token), and our server exchanges it,
            together with your API secret, for that day’s access token.
          </List.Item>
        </List>
      </Section>

      <Section title="Why you log in again every day">
        <Text size="sm">
          Indian brokers end API sessions daily, as the exchanges and SEBI require: an access token issued today stops working
          before the next trading day begins (Zerodha’s at 06:00 IST). Once live trading arrives, a live strategy will not
          place orders until that day’s login is done, so log in before 09:15 IST if it trades at the open. Backtests are
          not affected.
        </Text>
      </Section>

      <Section title="Rules for algorithmic orders">
        <Text size="sm">
          SEBI’s framework for retail algorithmic trading applies to every live order from 1 April 2026. When live trading
          opens here, this is what it will mean for you:
        </Text>
        <List spacing="xs" size="sm">
          <List.Item>Each order carries the algo id issued by the exchange for the strategy that placed it.</List.Item>
          <List.Item>
            More than 10 orders a second per client per exchange segment needs a separate registration, so {brand.name} sends
            at most 10 a second and queues the rest; an order that cannot wait is rejected and you see why.
          </List.Item>
          <List.Item>Orders leave from our registered static IP addresses, never from your browser.</List.Item>
          <List.Item>API access needs the broker’s OAuth login with two-factor authentication, and sessions end daily.</List.Item>
          <List.Item>
            Market orders must carry market protection (a price limit), and the exchange may cancel an algo market order, so
            strategies here send limit orders or protected market orders.
          </List.Item>
          <List.Item>
            Orders above the exchange’s freeze quantity (for NIFTY, 1,800 units) are split into at most 10 slices, each a whole
            number of lots.
          </List.Item>
          <List.Item>
            You can freeze your account at your broker at any moment (the kill switch): pending orders are cancelled and no
            new ones are accepted.
          </List.Item>
          <List.Item>Every order and every change to it is kept in an audit trail for five years.</List.Item>
        </List>
      </Section>

      <Alert variant="light" title="Keep your secrets to yourself">
        {brand.name} will never ask for your broker password, PIN, TOTP or one-time code by e-mail, phone or chat. If someone
        does, <Anchor component={Link} to="/report" inherit>tell us</Anchor>.
      </Alert>
    </Stack>
  );
}
