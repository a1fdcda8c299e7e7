import { Anchor, Code, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { currentBrand } from '../../app/brand';

/** '/report': how to report a problem or a security issue (by e-mail; no form). */
export function Component() {
  const brand = currentBrand();
  return (
    <Stack gap="xl" maw={860} py="md">
      <Stack gap="xs">
        <Title order={1}>Report a problem</Title>
        <Text c="dimmed">
          Something broken, a number that looks wrong, or a hole in our security: tell us by e-mail. A precise report is fixed
          faster than a long one.
        </Text>
      </Stack>

      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Paper withBorder p="lg" radius="md">
          <Title order={2} size="h4" mb="xs">Problems and wrong results</Title>
          <Anchor href={`mailto:${brand.supportEmail}`} fw={600} data-testid="support-email">{brand.supportEmail}</Anchor>
          <Text size="sm" c="dimmed" mt="xs">
            We answer on working days, and during market hours (09:15 to 15:30 IST) we read first anything about live orders.
          </Text>
        </Paper>
        <Paper withBorder p="lg" radius="md">
          <Title order={2} size="h4" mb="xs">Security issues</Title>
          <Anchor href={`mailto:${brand.securityEmail}`} fw={600} data-testid="security-email">{brand.securityEmail}</Anchor>
          <Text size="sm" c="dimmed" mt="xs">
            We confirm receipt within two working days and keep you informed until the fix is out.
          </Text>
        </Paper>
      </SimpleGrid>

      <Stack gap="xs" component="section">
        <Title order={2} size="h3">What to put in the e-mail</Title>
        <List spacing="xs" size="sm">
          <List.Item>The address of the page (for example <Code>/backtest/…</Code> with the id), and what you did just before.</List.Item>
          <List.Item>When it happened, in IST, to the minute if you can: we find your requests in the logs by time.</List.Item>
          <List.Item>What you expected and what you saw instead; a screenshot helps.</List.Item>
          <List.Item>
            For a wrong backtest or P&L: the strategy or backtest id, the instrument, the dates, and the trade that looks wrong
            with the figure you expected and how you worked it out.
          </List.Item>
          <List.Item>For a live order: the broker, the time, and the broker’s order id from your order book.</List.Item>
          <List.Item>Your browser and its version, and the e-mail address of your account.</List.Item>
        </List>
      </Stack>

      <Stack gap="xs" component="section">
        <Title order={2} size="h3">What never to send</Title>
        <Text size="sm">
          Your password, your broker password or PIN, two-factor or one-time codes, your broker API secret, access tokens or
          personal access tokens. We never need them to look into a problem, and nobody from {brand.name} will ask for them. If
          you sent one by mistake, change it.
        </Text>
      </Stack>

      <Stack gap="xs" component="section">
        <Title order={2} size="h3">Security research</Title>
        <Text size="sm">
          Describe the issue, the steps to reproduce it and what an attacker could gain. Please test only with your own
          accounts (the demo world of a local installation works well), do not read, change or delete other users’ data, do not
          place orders in accounts that are not yours, and do not run load or denial-of-service tests. Give us 90 days to fix
          the issue before you publish it. Research that follows these rules is welcome, and we will credit you if you wish.
        </Text>
      </Stack>
    </Stack>
  );
}
