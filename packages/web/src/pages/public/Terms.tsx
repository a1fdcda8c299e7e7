import { Alert, Anchor, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { currentBrand } from '../../app/brand';
import { Section } from './Section';

const LAST_UPDATED = '24 November 2026';

/** '/terms': the terms of use. */
export function Component() {
  const brand = currentBrand();
  return (
    <Stack gap="xl" maw={860} py="md">
      <Stack gap={4}>
        <Title order={1}>Terms of use</Title>
        <Text size="sm" c="dimmed">Last updated {LAST_UPDATED}</Text>
      </Stack>

      <Alert variant="light" color="orange" title="Trading derivatives can lose you more than you expect">
        SEBI’s studies of the equity futures and options segment found that about nine in ten individual traders lost money
        over the years studied. A strategy that did well in a backtest or on paper can lose money live. Trade only with money
        you can afford to lose.
      </Alert>

      <Section title="What these terms cover">
        <Text size="sm">
          These terms apply to your use of {brand.name}: the website, the app, its API and the strategies you run through it.
          By creating an account you accept them. If you use {brand.name} for a company, you accept them for the company.
        </Text>
      </Section>

      <Section title="What we are, and what we are not">
        <Text size="sm">
          {brand.name} is software. It runs the rules you write or choose, on historical data (backtests), on live prices
          without real orders (paper) or through your broker account (live). We are not a stock broker, not an investment
          adviser and not a research analyst; nothing on the platform is a recommendation to buy or sell. Strategies in the
          marketplace are published by their authors, and past results shown for them, ours included, are no promise of future
          ones.
        </Text>
      </Section>

      <Section title="Your account">
        <List spacing="xs" size="sm">
          <List.Item>You must be at least 18 and allowed to trade in derivatives under the rules that apply to you.</List.Item>
          <List.Item>One account is for one person. Do not share your password or your personal access tokens.</List.Item>
          <List.Item>
            Your plan (trial, basic, advanced and the others) decides which screens you see. Backtest credits and strategy
            licences count down as you use them and expire on the date shown in your account; unused credits are not refunded.
          </List.Item>
          <List.Item>
            If a manager runs your account, you still own it: you can see everything they do and end the arrangement by writing
            to us.
          </List.Item>
        </List>
      </Section>

      <Section title="Live trading is your decision">
        <List spacing="xs" size="sm">
          <List.Item>
            Every live order placed by a strategy you deploy, or subscribe to, is your order, placed in your broker account. You
            pay its charges and carry its profit or loss.
          </List.Item>
          <List.Item>
            Orders can fail or be delayed: your broker or the exchange may reject them, the exchange may cancel an algorithmic
            market order, your broker session may have expired, or a network or our service may be down. Watch your live
            strategies and your positions at your broker.
          </List.Item>
          <List.Item>
            You can stop a strategy in {brand.name} at any time, and freeze your account at your broker (the kill switch) to
            cancel every pending order.
          </List.Item>
          <List.Item>
            How we connect to brokers and the SEBI rules we follow are described on{' '}
            <Anchor component={Link} to="/brokersInfo" inherit>Connecting your broker</Anchor>.
          </List.Item>
        </List>
      </Section>

      <Section title="Backtests and paper trading are simulations">
        <Text size="sm">
          Backtests apply the charges, lot sizes, expiries and holidays in force on each historical day, but they fill orders at
          prices from candles, which real markets do not always give you; where no option prices are stored, option prices are
          modelled from the index and INDIA VIX. Paper trading fills against live prices without real queues or market impact.
          Treat both as estimates.
        </Text>
      </Section>

      <Section title="Publishing strategies">
        <Text size="sm">
          When you publish a strategy you let subscribers run it in their accounts for as long as they subscribe. You keep the
          rights in your work. Describe it honestly: no promised returns, no results that did not happen.
        </Text>
      </Section>

      <Section title="Fair use">
        <List spacing="xs" size="sm">
          <List.Item>Do not try to reach other users’ data, or to get around your plan’s limits or the order rate limits.</List.Item>
          <List.Item>Do not use the platform to manipulate prices or for any trading the exchanges or SEBI prohibit.</List.Item>
          <List.Item>Do not overload the service; automate through the GraphQL API with a personal access token, within its limits.</List.Item>
          <List.Item>
            Found a security issue? Report it as described on <Anchor component={Link} to="/report" inherit>Report a problem</Anchor>
            , and we will not pursue good-faith research that follows those rules.
          </List.Item>
        </List>
        <Text size="sm">We may suspend an account that breaks these rules, and will tell you why.</Text>
      </Section>

      <Section title="Availability and liability">
        <Text size="sm">
          We work to keep {brand.name} running during market hours and announce planned maintenance in the app, outside market
          hours where we can. We are not liable for trading losses, for missed trades, or for losses caused by your broker, the
          exchanges, your internet connection or events outside our control. Where the law does not allow that exclusion, our
          liability is limited to the fees you paid us in the three months before the event.
        </Text>
      </Section>

      <Section title="Closing your account, and changes">
        <Text size="sm">
          You can close your account at any time by writing to{' '}
          <Anchor href={`mailto:${brand.supportEmail}`} inherit>{brand.supportEmail}</Anchor>; stop your live strategies first.
          We tell you by e-mail at least 15 days before a change to these terms takes effect. These terms are governed by the
          laws of India.
        </Text>
      </Section>
    </Stack>
  );
}
