/**
 * The colour palettes the app offers (Settings → Colours), one list for the settings schema in main and
 * the Settings view. Each palette is a set of CSS custom properties under [data-palette] on the root
 * (renderer styles/theme.css); the chart reads the same properties.
 */
export const PALETTES = ['default', 'colour-blind', 'high-contrast'] as const;
export type Palette = (typeof PALETTES)[number];

export const PALETTE_LABELS: Record<Palette, string> = {
  default: 'Default (green / red)',
  'colour-blind': 'Colour-blind safe (blue / orange)',
  'high-contrast': 'High contrast',
};
