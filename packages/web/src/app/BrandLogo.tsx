import { useComputedColorScheme } from '@mantine/core';
import { currentBrand, type Brand } from './brand';

interface BrandLogoProps {
  /** Height in CSS pixels; the width follows the logo's proportions. */
  readonly height?: number;
  /** Another brand than this build's (a preview, for instance). */
  readonly brand?: Brand;
}

/** The brand's logo drawn for the current colour scheme. */
export function BrandLogo({ height = 32, brand = currentBrand() }: BrandLogoProps) {
  const scheme = useComputedColorScheme('dark');
  return (
    <img
      src={scheme === 'dark' ? brand.logo.dark : brand.logo.light}
      alt={brand.name}
      height={height}
      style={{ height, width: 'auto', display: 'block' }}
      data-testid="brand-logo"
    />
  );
}
