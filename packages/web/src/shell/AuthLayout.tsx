import { Anchor, Center, Container, Paper, Stack, Text } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { BrandLogo } from '../app/BrandLogo';
import { currentBrand } from '../app/brand';

/** The auth layout: the brand above one card. */
export function Component() {
  const brand = currentBrand();
  return (
    <Center mih="100vh" py="xl">
      <Container size={440} w="100%">
        <Stack align="center" gap="xs" mb="lg">
          <Anchor component={Link} to="/" aria-label={`${brand.name} home`}>
            <BrandLogo height={40} />
          </Anchor>
          <Text c="dimmed" size="sm">{brand.tagline}</Text>
        </Stack>
        <Paper withBorder shadow="sm" p="xl" radius="md">
          <Outlet />
        </Paper>
      </Container>
    </Center>
  );
}
