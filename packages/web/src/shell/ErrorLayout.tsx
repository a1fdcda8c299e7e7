import { Center, Container } from '@mantine/core';
import { Outlet } from 'react-router';

/** The error layout: one message in the middle of the screen. */
export function Component() {
  return (
    <Center mih="100vh">
      <Container size="sm">
        <Outlet />
      </Container>
    </Center>
  );
}
