// The stylesheet is imported here as well as in the root shell: when the shell's own chunk is what
// failed, this page still has to look like the product.
import '@mantine/core/styles.css';
import { Center, Container, MantineProvider } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { currentBrand } from '../../app/brand';
import { appTheme } from '../../app/theme';
import { useAppStore } from '../../stores/app-store';
import { ErrorView } from './ErrorView';

/**
 * The router's errorElement: a 404 response shows the not-found view, anything else (a thrown
 * error, a failed loader or chunk, a render crash) the general one. It replaces the root shell,
 * so it brings its own MantineProvider. Only development builds log the error, so production
 * consoles stay clean.
 */
export function RouteError() {
  const error = useRouteError();
  const theme = useAppStore((state) => state.theme);
  const density = useAppStore((state) => state.density);
  if (import.meta.env.DEV) console.error(error);
  const kind = isRouteErrorResponse(error) && error.status === 404 ? 'not-found' : 'error';
  return (
    <MantineProvider theme={appTheme({ primaryColor: currentBrand().primaryColor, density })} forceColorScheme={theme}>
      <Center mih="100vh">
        <Container size="sm">
          <ErrorView kind={kind} />
        </Container>
      </Center>
    </MantineProvider>
  );
}
