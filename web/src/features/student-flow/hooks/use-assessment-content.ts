import { useMemo } from 'react';
import { useLanguage } from '../../../i18n/react';
import { assessmentContent, type AssessmentContent, type ContentSource } from '../content';

/**
 * The assessment's texts in the active language (`assessmentContent`): a component that uses them follows a change
 * of language at once, and nothing else changes with it.
 */
export function useAssessmentContent(assessment: ContentSource): AssessmentContent {
  const { language } = useLanguage();
  const { title, description, translations } = assessment;
  return useMemo(
    () => assessmentContent({ title, description, translations }, language),
    [title, description, translations, language],
  );
}
