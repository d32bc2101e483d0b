import { useEffect, useRef } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { NumberInput } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import type { AssessmentForm } from '../api/assessment-schema';
import { questionsGiven } from '../api/types';

/** A section of the form with how many questions it has now and how many of them each student is given. */
export interface SectionDraw {
  id: number;
  draw: number | undefined;
  count: number;
}

/** Each section's draw and question count as the form holds them, kept up as questions come, go and move. */
export function useSectionDraws(): SectionDraw[] {
  const { control } = useFormContext<AssessmentForm>();
  const sections = useWatch({
    control,
    name: 'sections',
    compute: (all) => all.map((s) => ({ id: s.id, draw: s.draw })),
  });
  const placed = useWatch({ control, name: 'questions', compute: (all) => all.map((q) => q.section) });
  return sections.map((s) => ({ ...s, count: placed.filter((id) => id === s.id).length }));
}

/**
 * Checks the draws again whenever one of them or a section's question count changes, so a draw above the
 * count shows its message at once, and the message goes when questions are added to the section.
 */
export function useDrawCheck(draws: SectionDraw[]) {
  const { trigger } = useFormContext<AssessmentForm>();
  const key = draws.map((s) => `${s.draw ?? ''}/${s.count}`).join(' ');
  const sectionCount = draws.length;
  const checked = useRef(key);
  useEffect(() => {
    if (key === checked.current) return;
    checked.current = key;
    void trigger(Array.from({ length: sectionCount }, (_, i) => `sections.${i}.draw` as const));
  }, [key, sectionCount, trigger]);
}

/** What a section's draw does, said under its field; nothing when it is above the count (its error says so). */
export function drawHint(draw: number | undefined, count: number, t: AdminTranslate): string | undefined {
  if (draw && draw > count) return undefined;
  if (count === 0) return t('assessments.draw.noQuestions');
  if (draw && draw < count) return t('assessments.draw.some', { draw, count });
  return t('assessments.draw.all', { count });
}

/** An emptied field is no draw (all the questions), not NaN. */
const toDraw = (value: string | number | null | undefined) =>
  value === '' || value === null || value === undefined ? undefined : Number(value);

/** A section's "Questions per student": empty or 0 is all of them; the hint says what the number does. */
export function DrawField({ index, section }: { index: number; section: SectionDraw | undefined }) {
  const t = useAdminT();
  const field = bindFields(useFormContext<AssessmentForm>());
  return (
    <NumberInput
      label={t('assessments.draw.label')}
      min={0}
      step={1}
      placeholder={t('assessments.draw.placeholder')}
      hint={section && drawHint(section.draw, section.count, t)}
      {...field(`sections.${index}.draw`, { setValueAs: toDraw })}
    />
  );
}

/** While a section gives each student only some of its questions: how many of them all each student answers. */
export function DrawSummary() {
  const t = useAdminT();
  const draws = useSectionDraws();
  const { control } = useFormContext<AssessmentForm>();
  const total = useWatch({ control, name: 'questions', compute: (all) => all.length });
  if (!draws.some((s) => questionsGiven(s.draw, s.count) < s.count)) return null;
  const given = draws.reduce((sum, s) => sum + questionsGiven(s.draw, s.count), 0);
  return <p className="muted">{t('assessments.draw.summary', { given, total })}</p>;
}
