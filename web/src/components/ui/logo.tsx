/* eslint-disable lingui/no-unlocalized-strings -- the wordmark is artwork, drawn the same in every language */
export type LogoVariant = 'light' | 'dark';
export type LogoSize = 'small' | 'medium' | 'large' | 'xlarge';

/** SPEC §2 / §9: logo widths; the height follows from the artwork's proportions. */
export const LOGO_WIDTHS: Record<LogoSize, number> = { small: 80, medium: 120, large: 160, xlarge: 200 };

// 'light' is the artwork for light backgrounds (dark ink), 'dark' the one for dark backgrounds.
const palettes: Record<LogoVariant, { mark: string; tick: string; word: string; sub: string }> = {
  light: { mark: '#1d3a6e', tick: '#f4b942', word: '#14284d', sub: '#5b6b86' },
  dark: { mark: '#f4b942', tick: '#14284d', word: '#ffffff', sub: '#c3cee3' },
};

interface LogoProps {
  variant?: LogoVariant;
  size?: LogoSize;
}

export function Logo({ variant = 'light', size = 'medium' }: LogoProps) {
  const p = palettes[variant];
  return (
    <svg
      className={`logo logo--${variant}`}
      role="img"
      aria-label="Readiness"
      viewBox="0 0 200 56"
      width={LOGO_WIDTHS[size]}
      style={{ width: LOGO_WIDTHS[size], height: 'auto' }}
      data-variant={variant}
      data-size={size}
    >
      <rect x="0" y="4" width="48" height="48" rx="12" fill={p.mark} />
      <path
        d="M13 28.5l7.5 7.5L35 20.5"
        fill="none"
        stroke={p.tick}
        strokeWidth="5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <text
        x="60"
        y="31"
        textLength="134"
        lengthAdjust="spacingAndGlyphs"
        fill={p.word}
        fontFamily="Inter, 'Segoe UI', system-ui, sans-serif"
        fontSize="25"
        fontWeight="700"
      >
        Readiness
      </text>
      <text
        x="61"
        y="47"
        textLength="133"
        lengthAdjust="spacingAndGlyphs"
        fill={p.sub}
        fontFamily="Inter, 'Segoe UI', system-ui, sans-serif"
        fontSize="10.5"
        fontWeight="600"
        letterSpacing="1.6"
      >
        DISTANCE EDUCATION
      </text>
    </svg>
  );
}
