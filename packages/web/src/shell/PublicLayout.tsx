import { Anchor, Button, Container, Group } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { BrandLogo } from '../app/BrandLogo';

/** The noauth layout: public pages with a slim header. */
export function Component() {
  return (
    <>
      <Container size="lg" py="md">
        <Group justify="space-between">
          <Anchor component={Link} to="/" aria-label="Home">
            <BrandLogo height={32} />
          </Anchor>
          <Group gap="sm">
            <Anchor component={Link} to="/brokersInfo" size="sm">Brokers</Anchor>
            <Anchor component={Link} to="/terms" size="sm">Terms</Anchor>
            <Anchor component={Link} to="/privacy-policy" size="sm">Privacy</Anchor>
            <Button component={Link} to="/authenticate/signin" size="xs" variant="light">Sign in</Button>
          </Group>
        </Group>
      </Container>
      <Container size="lg" pb="xl">
        <Outlet />
      </Container>
    </>
  );
}
