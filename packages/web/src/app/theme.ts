// The Mantine theme: the brand's primary colour, and the density of docs/PRODUCT.md section 3 (compact or
// cozy) as Mantine's default component size and spacing scale.
import { createTheme, type MantineThemeOverride } from '@mantine/core';
import type { Density } from '../stores/app-store';

export function appTheme(options: { primaryColor: string; density: Density }): MantineThemeOverride {
  const compact = options.density === 'compact';
  return createTheme({
    primaryColor: options.primaryColor,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif',
    defaultRadius: 'sm',
    scale: compact ? 0.875 : 1,
    components: {
      Button: { defaultProps: { size: compact ? 'xs' : 'sm' } },
      TextInput: { defaultProps: { size: compact ? 'xs' : 'sm' } },
      PasswordInput: { defaultProps: { size: compact ? 'xs' : 'sm' } },
      Select: { defaultProps: { size: compact ? 'xs' : 'sm' } },
      Table: { defaultProps: { verticalSpacing: compact ? 4 : 'xs', fz: compact ? 'xs' : 'sm' } },
    },
  });
}
