import { Outlet } from 'react-router';

/** The landing layout: the page owns the whole screen. */
export function Component() {
  return <Outlet />;
}
