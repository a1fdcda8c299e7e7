// Brand variants (docs/PRODUCT.md section 1): one build serves one client, chosen by the client-name setting
// VITE_CLIENT_NAME at build time. A brand has its own name, release version and logos; the
// deployed build id still comes from /version.json. Logos are SVG drawn here, as data URLs, so a
// brand costs no request and no image file. Wordmarks set textLength so any system font fits the box.

/** Mantine palette names a brand may take as its primary colour. */
export type BrandColor = 'indigo' | 'teal' | 'blue' | 'violet' | 'cyan' | 'grape' | 'orange';

export type BrandId = 'vyuha' | 'nivesh-algo';

export interface Brand {
  readonly id: BrandId;
  readonly name: string;
  readonly tagline: string;
  /** The brand's own release name (a white-label partner versions its product separately). */
  readonly version: string;
  /** Logo per colour scheme: `light` is drawn for a light background, `dark` for a dark one. */
  readonly logo: { readonly light: string; readonly dark: string };
  readonly primaryColor: BrandColor;
  /** Where users write for help (the /report page). */
  readonly supportEmail: string;
  /** Where security issues go (the /report page). */
  readonly securityEmail: string;
}

function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const WORDMARK_FONT = `font-family="system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif" font-weight="700"`;

/**
 * Vyuha's mark: a wedge formation (a vyuha is a battle array) of five points joined by a line,
 * on a rounded square, then the wordmark.
 */
function vyuhaLogo(colors: { tile: string; mark: string; text: string }): string {
  return svgDataUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 128 40" width="128" height="40" role="img" aria-label="Vyuha">`
    + `<rect width="40" height="40" rx="9" fill="${colors.tile}"/>`
    + `<polyline points="9,11 14.5,20 20,30 25.5,20 31,11" fill="none" stroke="${colors.mark}" stroke-width="2" stroke-linejoin="round" opacity="0.55"/>`
    + `<g fill="${colors.mark}"><circle cx="9" cy="11" r="3"/><circle cx="14.5" cy="20" r="3"/><circle cx="20" cy="30" r="3.6"/><circle cx="25.5" cy="20" r="3"/><circle cx="31" cy="11" r="3"/></g>`
    + `<text x="50" y="28" font-size="23" ${WORDMARK_FONT} fill="${colors.text}" textLength="74" lengthAdjust="spacingAndGlyphs">Vyuha</text>`
    + `</svg>`,
  );
}

/** Nivesh Algo's mark: three rising bars under an upward tick in a circle, then the wordmark. */
function niveshLogo(colors: { disc: string; mark: string; text: string; accent: string }): string {
  return svgDataUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 172 40" width="172" height="40" role="img" aria-label="Nivesh Algo">`
    + `<circle cx="20" cy="20" r="20" fill="${colors.disc}"/>`
    + `<g fill="${colors.mark}"><rect x="10" y="22" width="5" height="9" rx="1"/><rect x="17.5" y="17" width="5" height="14" rx="1"/><rect x="25" y="12" width="5" height="19" rx="1"/></g>`
    + `<polyline points="9,17 16,11 21,14 30,7" fill="none" stroke="${colors.mark}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>`
    + `<text x="48" y="27" font-size="20" ${WORDMARK_FONT} fill="${colors.text}" textLength="122" lengthAdjust="spacingAndGlyphs">Nivesh<tspan fill="${colors.accent}" font-weight="500"> Algo</tspan></text>`
    + `</svg>`,
  );
}

const VYUHA: Brand = {
  id: 'vyuha',
  name: 'Vyuha',
  tagline: 'Build, backtest and deploy options strategies on NSE and BSE.',
  version: '2026.11',
  logo: {
    light: vyuhaLogo({ tile: '#4263eb', mark: '#ffffff', text: '#1a1b1e' }),
    dark: vyuhaLogo({ tile: '#5c7cfa', mark: '#ffffff', text: '#f1f3f5' }),
  },
  primaryColor: 'indigo',
  supportEmail: 'support@vyuha.in',
  securityEmail: 'security@vyuha.in',
};

// An example white-label partner: same product, its own name, colours, logos and release line.
const NIVESH_ALGO: Brand = {
  id: 'nivesh-algo',
  name: 'Nivesh Algo',
  tagline: 'Rule-based options trading for Indian markets, tested before it trades.',
  version: '1.4',
  logo: {
    light: niveshLogo({ disc: '#0ca678', mark: '#ffffff', text: '#1a1b1e', accent: '#0ca678' }),
    dark: niveshLogo({ disc: '#20c997', mark: '#0b2b22', text: '#f1f3f5', accent: '#63e6be' }),
  },
  primaryColor: 'teal',
  supportEmail: 'help@niveshalgo.in',
  securityEmail: 'security@niveshalgo.in',
};

/** Every brand this build knows, by id. */
export const BRANDS: Readonly<Record<BrandId, Brand>> = { vyuha: VYUHA, 'nivesh-algo': NIVESH_ALGO };

// Client names as people write them in a setting: 'Nivesh Algo', 'nivesh_algo', 'NIVESH-ALGO'.
const ALIASES: Readonly<Record<string, BrandId>> = { vyuha: 'vyuha', niveshalgo: 'nivesh-algo', nivesh: 'nivesh-algo' };

/** The brand for a client name (case, spaces, hyphens and underscores ignored); Vyuha when unknown or unset. */
export function brandFor(clientName: string | undefined): Brand {
  if (clientName === undefined) return VYUHA;
  const key = clientName.toLowerCase().replace(/[\s_-]+/g, '');
  const id = ALIASES[key];
  return id === undefined ? VYUHA : BRANDS[id];
}

/** The brand of this build: `VITE_CLIENT_NAME` (default 'vyuha'). */
export function currentBrand(): Brand {
  const clientName: unknown = import.meta.env.VITE_CLIENT_NAME;
  return brandFor(typeof clientName === 'string' && clientName !== '' ? clientName : 'vyuha');
}
