import { useId } from 'react';
import { T, useT } from '../../../i18n/react';
import { KEEP_CLEAR } from '../../../lib/toast';
import type { StudentSection } from '../api/types';
import type { AssessmentContent, Localized } from '../content';
import { textDirection, type Language } from '../../../i18n/languages';

/** 'Section 2: Study Habits', its title in the page's language, or in English and marked so. */
export function SectionName({ section, content }: { section: StudentSection; content: AssessmentContent }) {
  const title = content.section(section).title;
  return (
    <T
      id="section.label"
      values={{ id: section.id, title: <bdi {...content.mark(title)}>{title.text}</bdi> }}
    />
  );
}

/**
 * A section's title inside an option. An option holds plain text only, so its title cannot be marked apart from the
 * words around it as a tab's `bdi` is: a title in English on another language's page marks the whole option
 * `lang="en"` (the title is most of its words), and one whose direction is not the page's is set apart with Unicode's
 * isolates, the plain-text `bdi`, so that 'Study Habits' on an Arabic page keeps its own order.
 */
function optionTitle(title: Localized, page: Language): string {
  return textDirection(title.lang) === textDirection(page) ? title.text : `\u2068${title.text}\u2069`;
}

interface SectionNavProps {
  sections: StudentSection[];
  content: AssessmentContent;
  current: number;
  canOpen: (index: number) => boolean;
  onOpen: (index: number) => void;
}

/**
 * SPEC §2: the sections as tabs on a desktop and as a dropdown on a phone (the stylesheet shows one
 * of the two). A later section opens only once every section before it is complete.
 */
export function SectionNav({ sections, content, current, canOpen, onOpen }: SectionNavProps) {
  const selectId = useId();
  const t = useT();
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
              <SectionName section={section} content={content} />
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
          {sections.map((section, index) => {
            const title = content.section(section).title;
            return (
              <option
                key={section.id}
                value={index}
                disabled={index !== current && !canOpen(index)}
                lang={content.mark(title).lang}
              >
                {t('section.label', { id: section.id, title: optionTitle(title, content.language) })}
              </option>
            );
          })}
        </select>
      </div>
    </nav>
  );
}
