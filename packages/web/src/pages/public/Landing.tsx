// The public landing page at '/'. It is the first thing a visitor downloads, so it stays within
// @mantine/core: no icons, no images but the brand's inline SVG, no data fetching beyond the
// version poll the shell already runs.
import { Anchor, Badge, Box, Button, Container, Divider, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { BrandLogo } from '../../app/BrandLogo';
import { currentBrand } from '../../app/brand';
import { useDeployedVersion } from '../../shell/use-deployed-version';

interface Feature {
  readonly title: string;
  readonly body: string;
}

const FEATURES: readonly Feature[] = [
  {
    title: 'Algorithm builder',
    body: 'Write entry and exit rules as expressions such as crossover(sma(close, 10), sma(close, 20)) or time() >= "09:20", or assemble them as a graph of Buy and Sell nodes. Rules are checked as you type, so a typo is an error message, not a silent no-trade.',
  },
  {
    title: 'Charts',
    body: 'Candles at 1 to 180 minutes or a day for NIFTY 50, NIFTY BANK, FINNIFTY, MIDCPNIFTY and SENSEX. Indicator panes and Horizontal Line and Ray drawings, with the same indicators your algorithm uses, are being added.',
  },
  {
    title: 'Backtests that count the costs',
    body: 'Every simulated fill pays brokerage, STT, exchange transaction charges, SEBI fees, stamp duty and GST at the rates in force on that day. Lot sizes, weekly and monthly expiries and holidays follow the exchange calendar of the day being tested, not today’s.',
  },
  {
    title: 'Paper and live deployment',
    body: 'Run a strategy on paper against the live market first, then switch the same strategy to your broker account. One engine runs backtest, paper and live, so the rules do not change between them. Paper and live trading are being built; backtests run today.',
  },
  {
    title: 'Marketplace subscriptions',
    body: 'Subscribe to strategies other traders publish, choose the quantity and the investment per broker account, and follow each subscription’s orders and profit and loss day by day.',
  },
  {
    title: 'Managers and teams',
    body: 'A manager watches the accounts of the users they manage, acts for them when asked, and sees the combined P&L. Support staff see names masked.',
  },
];

const HONEST_BACKTEST: readonly string[] = [
  'Charges as on the contract note, per executed order, from a dated schedule (STT on option premium rose to 0.10% on 1 October 2024 and to 0.15% on 1 April 2026; a 2023 backtest uses the 2023 rate).',
  'Lot sizes as they were: a NIFTY lot was 50, then 25, 75 and now 65 units, and during a changeover old and new contracts trade with different lots.',
  'Expiry days as they were: weekly or monthly, Thursday or Tuesday, moved to the previous trading day when the exchange is closed.',
  'Orders above the exchange’s freeze quantity go out as several slices, and each slice pays its own brokerage.',
];

const EXCHANGES: readonly { readonly code: string; readonly what: string }[] = [
  { code: 'NSE', what: 'National Stock Exchange, cash market and indices' },
  { code: 'NFO', what: 'NSE futures and options' },
  { code: 'BSE', what: 'BSE, cash market and the SENSEX' },
  { code: 'BFO', what: 'BSE futures and options' },
];

function Hero() {
  const brand = currentBrand();
  return (
    <Stack gap="lg" py={48} align="flex-start">
      <BrandLogo height={48} />
      <Title order={1} fz={{ base: 32, sm: 44 }} lh={1.15} maw={760}>
        Options strategies for Indian markets, from idea to order
      </Title>
      <Text size="lg" c="dimmed" maw={680}>
        {brand.name} lets you write an algorithm, chart it, backtest it with real charges, expiries and lot sizes, and then
        run it on paper or live through your broker. Built for the index options traded on NSE and BSE.
      </Text>
      <Group gap="sm">
        <Button component={Link} to="/authenticate/signup" size="md" data-testid="landing-sign-up">Sign up</Button>
        <Button component={Link} to="/authenticate/signin" size="md" variant="default" data-testid="landing-sign-in">Sign in</Button>
      </Group>
    </Stack>
  );
}

function Features() {
  return (
    <Stack gap="md" py="xl" component="section" aria-labelledby="features-title">
      <Title order={2} id="features-title">What you can do</Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        {FEATURES.map((feature) => (
          <Paper key={feature.title} withBorder p="lg" radius="md">
            <Title order={3} size="h4" mb="xs">{feature.title}</Title>
            <Text size="sm" c="dimmed">{feature.body}</Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function HonestBacktests() {
  return (
    <Stack gap="md" py="xl" component="section" aria-labelledby="honest-title">
      <Title order={2} id="honest-title">A backtest should lose money where the market would</Title>
      <Text c="dimmed" maw={760}>
        A strategy that sells options a few times a day can look profitable until the charges are counted. Backtests here
        replay the market rules of each historical day:
      </Text>
      <List spacing="xs" size="sm" maw={820}>
        {HONEST_BACKTEST.map((line) => <List.Item key={line}>{line}</List.Item>)}
      </List>
    </Stack>
  );
}

function Markets() {
  return (
    <Stack gap="md" py="xl" component="section" aria-labelledby="markets-title">
      <Title order={2} id="markets-title">Exchanges</Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
        {EXCHANGES.map((exchange) => (
          <Paper key={exchange.code} withBorder p="md" radius="md">
            <Badge size="lg" variant="light" mb="xs">{exchange.code}</Badge>
            <Text size="sm" c="dimmed">{exchange.what}</Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Text size="sm" c="dimmed">
        Market hours 09:15 to 15:30 IST. Times, dates and amounts are shown in Indian time and rupees.
      </Text>
    </Stack>
  );
}

function Footer() {
  const brand = currentBrand();
  const deployed = useDeployedVersion();
  return (
    <Box component="footer" py="xl">
      <Divider mb="lg" />
      <Group justify="space-between" align="flex-start" gap="md">
        <Group gap="lg">
          <Anchor component={Link} to="/brokersInfo" size="sm">Brokers</Anchor>
          <Anchor component={Link} to="/privacy-policy" size="sm">Privacy policy</Anchor>
          <Anchor component={Link} to="/terms" size="sm">Terms of use</Anchor>
          <Anchor component={Link} to="/report" size="sm">Report a problem</Anchor>
        </Group>
        <Text size="xs" c="dimmed" data-testid="landing-version">
          {brand.name} {brand.version}
          {deployed.version === undefined ? '' : ` · build ${deployed.version}`}
        </Text>
      </Group>
      <Text size="xs" c="dimmed" mt="md" maw={820}>
        Trading in derivatives carries a high risk of loss. Backtest results are simulations on historical data and do not
        promise future returns. {brand.name} is software, not an investment adviser; you decide every strategy you run.
      </Text>
    </Box>
  );
}

/** The landing route '/'. */
export function Component() {
  return (
    <Container size="lg" px="md">
      <Hero />
      <Features />
      <HonestBacktests />
      <Markets />
      <Footer />
    </Container>
  );
}
