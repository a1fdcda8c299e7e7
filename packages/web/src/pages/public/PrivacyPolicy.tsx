import { Anchor, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { currentBrand } from '../../app/brand';
import { Section } from './Section';

const LAST_UPDATED = '24 November 2026';

/** '/privacy-policy': what the platform keeps about a user, why, where, for how long, and who else sees it. */
export function Component() {
  const brand = currentBrand();
  return (
    <Stack gap="xl" maw={860} py="md">
      <Stack gap={4}>
        <Title order={1}>Privacy policy</Title>
        <Text size="sm" c="dimmed">Last updated {LAST_UPDATED}</Text>
      </Stack>

      <Text>
        {brand.name} is a platform for building, testing and running options-trading strategies. To do that it has to know who
        you are, which broker accounts you trade through and what your strategies do. This page lists that data, why we keep
        it and what you can ask us to do with it, in line with India’s Digital Personal Data Protection Act, 2023.
      </Text>

      <Section title="What we keep">
        <List spacing="xs" size="sm">
          <List.Item>
            <Text fw={600} span size="sm">Your account:</Text> e-mail address, display name, phone number if you sign in by
            SMS, your plan (trial, basic, advanced and so on) and its credits. Passwords are stored only as argon2id hashes;
            security keys only as their public keys; sessions and personal access tokens only as SHA-256 hashes.
          </List.Item>
          <List.Item>
            <Text fw={600} span size="sm">Your broker accounts:</Text> broker, client id, API key, the amount you invest
            through each, and the API secret, encrypted so that no person can read it (see{' '}
            <Anchor component={Link} to="/brokersInfo" inherit>Connecting your broker</Anchor>).
          </List.Item>
          <List.Item>
            <Text fw={600} span size="sm">Your trading work:</Text> algorithms, backtests and their results, strategies,
            baskets, subscriptions, signals, orders, fills, positions and profit and loss.
          </List.Item>
          <List.Item>
            <Text fw={600} span size="sm">Your settings:</Text> theme, density, exchange and time zone, dashboard and
            marketplace layout.
          </List.Item>
          <List.Item>
            <Text fw={600} span size="sm">Technical records:</Text> sign-ins, the IP address and browser they came from, and
            server logs of requests and errors.
          </List.Item>
        </List>
        <Text size="sm">
          We do not keep your broker password, PIN or two-factor codes: you type them on your broker’s own page, never on ours.
        </Text>
      </Section>

      <Section title="Why">
        <List spacing="xs" size="sm">
          <List.Item>To run the service you signed up for: sign you in, run your backtests, send your live orders, show your P&L.</List.Item>
          <List.Item>To keep it safe: detect unusual sign-ins, limit abuse, and investigate incidents.</List.Item>
          <List.Item>
            To meet the law: SEBI’s rules for algorithmic trading require an audit trail of every live order and every change
            to it, kept for five years.
          </List.Item>
        </List>
        <Text size="sm">
          We do not sell your data, we do not show advertising, and we do not load advertising or tracking scripts.
        </Text>
      </Section>

      <Section title="Who else sees it">
        <List spacing="xs" size="sm">
          <List.Item>
            <Text fw={600} span size="sm">Your broker</Text> receives your orders and the access token of that day, as any
            trading app connected to your account does.
          </List.Item>
          <List.Item>
            <Text fw={600} span size="sm">Your manager</Text>, if you joined {brand.name} through one, sees your accounts, your
            strategies and their P&L, and can act for you. You can see who manages you in your profile.
          </List.Item>
          <List.Item>
            <Text fw={600} span size="sm">Our support staff</Text> see your data with your name masked (the first two and the
            last two characters).
          </List.Item>
          <List.Item>
            <Text fw={600} span size="sm">Subscribers</Text> to a strategy you publish see the strategy, its orders and its
            results, not your broker accounts or your other work.
          </List.Item>
          <List.Item>
            <Text fw={600} span size="sm">Service providers</Text>: the e-mail and SMS services that deliver sign-in links and
            codes, our hosting provider, and, where the live chat is switched on, the chat provider, whose script receives your
            IP address and the page you are on.
          </List.Item>
          <List.Item>Authorities, when Indian law obliges us to hand data over.</List.Item>
        </List>
      </Section>

      <Section title="In your browser">
        <Text size="sm">
          The app keeps a sign-in cookie (seven days), your refresh token in local storage, and your screen settings in session
          storage, which the browser forgets when the tab closes. Signing out removes all of them. There are no third-party
          cookies.
        </Text>
      </Section>

      <Section title="How long">
        <Text size="sm">
          Your account data stays while your account is open. When you close it we delete it within 30 days, except the records
          the law makes us keep: the audit trail of live orders (five years) and invoices for paid plans (eight years, under
          Indian tax law). Server logs are deleted after 90 days.
        </Text>
      </Section>

      <Section title="Your rights">
        <Text size="sm">
          You can ask for a copy of your data, have it corrected, have it erased, or withdraw a consent you gave, and you can
          nominate someone to act for you. Write to{' '}
          <Anchor href={`mailto:${brand.supportEmail}`} inherit>{brand.supportEmail}</Anchor> from the e-mail address of your
          account; we answer within 30 days. If you are not satisfied with our answer, you may complain to the Data Protection
          Board of India.
        </Text>
      </Section>

      <Section title="Changes">
        <Text size="sm">
          When this policy changes we update the date at the top, and for changes that affect what we collect or share, we tell
          you by e-mail before they apply.
        </Text>
      </Section>
    </Stack>
  );
}
