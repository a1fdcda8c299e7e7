import { Alert, Anchor, Code, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { currentBrand } from '../../app/brand';
import { Section } from './Section';

// The rows of the `brokers` table (migration 0003). The list in the account screen is read from
// the database and is the one that counts; this page describes them for visitors. Only Zerodha has
// a login adapter and a LIVE venue today (packages/server/src/brokers/README.md): for the others the
// login answers `not-supported` and a LIVE deploy is refused, so they can only be recorded.
const BROKERS: ReadonlyArray<{ readonly name: string; readonly live: boolean }> = [
  { name: 'Zerodha (Kite Connect)', live: true },
  ...['Upstox', 'Angel One (SmartAPI)', 'Fyers', 'Dhan', 'ICICI Direct (Breeze)', 'Kotak Neo', 'Alice Blue', '5paisa',
    'Shoonya (Finvasia)', 'IIFL Securities', 'Motilal Oswal'].map((name) => ({ name, live: false })),
];

/** What a LIVE strategy on a Zerodha account does at Kite, one line per part (docs/BROKER-KITE.md). */
function ZerodhaLiveSection() {
  return (
    <Section title="Zerodha: what LIVE trading does">
      <List spacing="xs" size="sm">
        <List.Item>
          <Text fw={600} span>Orders.</Text> Each order goes to Kite from this server with the strategy’s algo id, market
          protection and a tag naming the order, so every answer and fill is matched to the order that caused it. Fills
          arrive from Kite’s ticker, from Kite’s postbacks (their checksum is verified) and from polling, whichever comes first.
        </List.Item>
        <List.Item>
          <Text fw={600} span>Market data.</Text> Prices of the instruments a LIVE strategy trades come from Kite’s ticker
          on your session.
        </List.Item>
        <List.Item>
          <Text fw={600} span>Positions and reconciliation.</Text> Before a strategy trades, its orders and positions are
          compared with Kite’s. A position at Kite that the strategy cannot explain pauses the strategy and raises an alert on
          your account; it does not resume by itself.
        </List.Item>
        <List.Item>
          <Text fw={600} span>Margin check.</Text> While the account’s available margin at Kite is below the strategy’s
          investment, the strategy makes no new entry and you get an alert; exits go on.
        </List.Item>
        <List.Item>
          <Text fw={600} span>The daily session.</Text> Deploying LIVE needs today’s session: without it the deploy is refused
          with “Log in to Zerodha for today”. If the session ends during the day (you log out, log in elsewhere, or Kite ends
          it), the account’s LIVE strategies stop making entries and you get an alert; they resume after your next login.
        </List.Item>
        <List.Item>
          <Text fw={600} span>Kill switch at the broker.</Text> Turning on the kill switch cancels the strategies’ working
          orders at Kite and squares their positions off there; no new order is sent.
        </List.Item>
        <List.Item>
          <Text fw={600} span>Audit trail.</Text> Every request sent to Kite and Kite’s answer are kept, without your API secret
          or access token, tied to the order they concern; you can read yours through the GraphQL API (<Code>broker_requests</Code>).
        </List.Item>
        <List.Item>
          <Text fw={600} span>Not yet:</Text> option legs are not traded LIVE; a strategy with option legs runs on paper only.
        </List.Item>
      </List>
    </Section>
  );
}

/** What a Zerodha account needs before it trades LIVE, in the order a user does it. */
function ZerodhaConnectSteps({ brandName }: { readonly brandName: string }) {
  return (
    <Section title="How connecting Zerodha works">
      <List type="ordered" spacing="sm" size="sm">
        <List.Item>
          <Text fw={600} span>Create a Kite Connect app.</Text>{' '}
          In Zerodha’s Kite Connect developer console create an app. Zerodha gives you an API key and an API secret. Set the
          app’s redirect URL, on this server’s address, to
          <Code block my="xs">{'https://<this site>/api/broker_login/zerodha/{client_id}'}</Code>
          with your client id, for example <Code>/api/broker_login/zerodha/AB1234</Code>, and its postback URL to
          <Code block my="xs">{'https://<this site>/api/broker_postback/zerodha'}</Code>
        </List.Item>
        <List.Item>
          <Text fw={600} span>Register the static IP.</Text>{' '}
          Since 1 April 2026 SEBI’s rules let Kite accept orders only from a static IP address registered with Zerodha for
          your app: register the static IP this server sends its orders from.
        </List.Item>
        <List.Item>
          <Text fw={600} span>Add the account in {brandName}.</Text>{' '}
          Under your profile, add a broker account with the client id, the API key and the API secret, and the amount you
          invest through it. The API key is not a secret (it appears in the broker’s login address). The API secret is
          encrypted on our server with AES-256-GCM before it reaches the database, under a key kept outside the database.
          Nobody can read it back: not you, not support, not an administrator. To change it, enter a new one.
        </List.Item>
        <List.Item>
          <Text fw={600} span>Give each LIVE strategy its algo id.</Text>{' '}
          Every LIVE order carries the algo id the exchange issued for the strategy: set it on the strategy. Without it (and
          without a default algo id set by this server’s operator) a LIVE deploy is refused.
        </List.Item>
        <List.Item>
          <Text fw={600} span>Log in at Zerodha every trading day.</Text>{' '}
          The “Log in to broker” button takes you to Zerodha’s own login page, where you sign in with your Zerodha password
          and two-factor code ({brandName} never asks for either). Zerodha then sends you back to the redirect URL above with
          a one-time request token, and our server exchanges it, together with your API secret, for that day’s access token.
          “Log out of Zerodha” ends that day’s session, here and at Kite.
        </List.Item>
      </List>
    </Section>
  );
}

/** '/brokersInfo': what works today, per broker, how a Zerodha account is connected, and the rules live orders follow. */
export function Component() {
  const brand = currentBrand();
  return (
    <Stack gap="xl" maw={860} py="md">
      <Stack gap="xs">
        <Title order={1}>Connecting your broker</Title>
        <Text c="dimmed">
          Backtests, charts and paper trading need no broker. LIVE trading sends orders to your own account at your broker
          through the broker’s official trading API. Your money and your holdings stay with the broker; {brand.name} places and
          cancels orders, and nothing else: broker APIs cannot withdraw funds or transfer securities.
        </Text>
      </Stack>

      <Alert variant="light" color="yellow" title="What works today" data-testid="live-trading-status">
        <List size="sm" spacing={4}>
          <List.Item>
            <Text fw={600} span>Works:</Text> backtests, charts and paper trading; recording your broker accounts; with Zerodha
            (Kite Connect), the daily login, which stores that day’s access token encrypted and confirms the client id is yours,
            and LIVE trading through that account (on plans that include it).
          </List.Item>
          <List.Item>
            <Text fw={600} span>Not yet:</Text> option legs in LIVE trading (paper only). Brokers other than Zerodha are not
            available yet: their login answers “not supported” and a LIVE deploy through them is refused.
          </List.Item>
        </List>
      </Alert>

      <Section title="Brokers">
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="xs">
          {BROKERS.map((broker) => (
            <Paper key={broker.name} withBorder px="sm" py={6} radius="sm">
              <Text size="sm">{broker.name}</Text>
              <Text size="xs" c="dimmed">{broker.live ? 'Daily login and LIVE trading work' : 'Not available yet: login and LIVE refuse it'}</Text>
            </Paper>
          ))}
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          When you add a broker account you choose from the brokers that are switched on at that moment. A broker whose
          connection is being repaired after an API change is switched off until it works again.
        </Text>
      </Section>

      <ZerodhaLiveSection />

      <ZerodhaConnectSteps brandName={brand.name} />

      <Section title="Why you log in again every day">
        <Text size="sm">
          Indian brokers end API sessions daily, as the exchanges and SEBI require: an access token issued today stops working
          before the next trading day begins (Zerodha’s at 06:00 IST). A LIVE strategy places no entry until that day’s login
          is done, so log in before 09:15 IST if it trades at the open. Backtests and paper trading are not affected.
        </Text>
      </Section>

      <Section title="Rules for algorithmic orders">
        <Text size="sm">
          SEBI’s framework for retail algorithmic trading applies to every live order from 1 April 2026. This is what it
          means for your LIVE orders here:
        </Text>
        <List spacing="xs" size="sm">
          <List.Item>Each order carries the algo id issued by the exchange for the strategy that placed it.</List.Item>
          <List.Item>
            More than 10 orders a second per client per exchange segment needs a separate registration, so {brand.name} sends
            at most 10 a second and queues the rest; an order that cannot wait is rejected and you see why.
          </List.Item>
          <List.Item>Orders leave from this server’s registered static IP address, never from your browser.</List.Item>
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
            You can stop trading at any moment with the kill switch: working orders at the broker are cancelled, the
            strategies’ positions are squared off there and no new order is sent.
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
