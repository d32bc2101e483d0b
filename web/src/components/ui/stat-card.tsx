import type { ReactNode } from 'react';

type Tone = 'primary' | 'success' | 'warning' | 'danger' | 'accent';

interface StatCardProps {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  tone?: Tone;
  hint?: string;
}

export function StatCard({ label, value, icon, tone = 'primary', hint }: StatCardProps) {
  return (
    <section className={`stat-card stat-card--${tone}`} aria-label={label}>
      {icon && (
        <div className="stat-card__icon" aria-hidden="true">
          {icon}
        </div>
      )}
      <div>
        <p className="stat-card__label">{label}</p>
        <p className="stat-card__value">{value}</p>
        {hint && <p className="stat-card__hint">{hint}</p>}
      </div>
    </section>
  );
}
