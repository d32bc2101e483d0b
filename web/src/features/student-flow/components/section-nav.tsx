import { useId } from 'react';
import { useT } from '../../../i18n/react';
import { KEEP_CLEAR } from '../../../lib/toast';
import type { StudentSection } from '../api/types';

interface SectionNavProps {
  sections: StudentSection[];
  current: number;
  canOpen: (index: number) => boolean;
  onOpen: (index: number) => void;
}

/**
 * SPEC §2: the sections as tabs on a desktop and as a dropdown on a phone (the stylesheet shows one
 * of the two). A later section opens only once every section before it is complete.
 */
export function SectionNav({ sections, current, canOpen, onOpen }: SectionNavProps) {
  const selectId = useId();
  const t = useT();
  const sectionLabel = (section: StudentSection) =>
    t('section.label', { id: section.id, title: section.title });
  return (
    <nav className="section-nav" aria-label={t('sections.nav')} {...KEEP_CLEAR}>
      <ul className="section-nav__tabs">
        {sections.map((section, index) => (
          <li key={section.id}>
            <button
              type="button"
              className={`section-tab${index === current ? ' section-tab--current' : ''}`}
              aria-current={index === current ? 'step' : undefined}
              disabled={index !== current && !canOpen(index)}
              onClick={() => onOpen(index)}
            >
              {sectionLabel(section)}
            </button>
          </li>
        ))}
      </ul>
      <div className="section-nav__select">
        <label htmlFor={selectId} className="visually-hidden">
          {t('sections.select')}
        </label>
        <select
          id={selectId}
          className="input select"
          value={current}
          onChange={(e) => onOpen(Number(e.target.value))}
        >
          {sections.map((section, index) => (
            <option key={section.id} value={index} disabled={index !== current && !canOpen(index)}>
              {sectionLabel(section)}
            </option>
          ))}
        </select>
      </div>
    </nav>
  );
}
