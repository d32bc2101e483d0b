import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './spinner';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'sm' | 'md' | 'lg';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
  loading?: boolean;
  icon?: ReactNode;
  block?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  icon,
  block = false,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  const classes = ['btn', `btn--${variant}`, `btn--${size}`, block && 'btn--block', className]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size="sm" decorative /> : icon}
      {children && <span>{children}</span>}
    </button>
  );
}

/** A square button carrying only an icon; its label is for screen readers and the tooltip. */
export function IconButton({
  label,
  icon,
  className,
  ...rest
}: ButtonProps & { label: string; icon: ReactNode }) {
  return (
    <Button
      variant="ghost"
      size="sm"
      className={['btn--icon', className].filter(Boolean).join(' ')}
      aria-label={label}
      title={label}
      icon={icon}
      {...rest}
    />
  );
}
