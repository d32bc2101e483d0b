import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import { Plus } from 'lucide-react';
import { Spinner } from './spinner';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';
type Size = 'sm' | 'md' | 'lg';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: Size;
  loading?: boolean;
  icon?: ReactNode;
  block?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

const buttonClass = (variant: Variant, size: Size, ...more: (string | false | undefined)[]) =>
  ['btn', `btn--${variant}`, `btn--${size}`, ...more].filter(Boolean).join(' ');

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
  return (
    <button
      type={type}
      className={buttonClass(variant, size, block && 'btn--block', className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size="sm" decorative /> : icon}
      {children && <span>{children}</span>}
    </button>
  );
}

/**
 * A link to a page outside the app (a browser navigation, not a route) that looks like a large Button, e.g. the
 * single sign-on start.
 */
export function ExternalButtonLink({
  href,
  variant = 'secondary',
  icon,
  children,
}: {
  href: string;
  variant?: Variant;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <a className={buttonClass(variant, 'lg', 'btn--block')} href={href}>
      {icon}
      <span>{children}</span>
    </a>
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

/** A link that looks like a Button: its icon, then its text. */
export function ButtonLink({
  variant = 'primary',
  icon,
  children,
  ...rest
}: LinkProps & { variant?: Variant; icon: ReactNode }) {
  return (
    <Link className={buttonClass(variant, 'md')} {...rest}>
      {icon}
      <span>{children}</span>
    </Link>
  );
}

/** A small secondary button that adds an item to a list (a section, a question, an option). */
export function AddButton(props: ButtonProps) {
  return <Button variant="secondary" size="sm" icon={<Plus size={16} aria-hidden="true" />} {...props} />;
}
