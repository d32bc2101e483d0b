import { recordedResult } from '@readiness/contracts';
import { certificateHtml } from '../src/domain/templates/certificate';
import { reportHtml } from '../src/domain/templates/report';
import { resultFacts, resultRecorded } from './events';

// A name written right to left, with an override (refused at the door now, but names stored before stay): inside
// <bdi> it cannot reorder the sentence, the date or the code printed around it.
const NAME = 'ليلى \u202eحسن';

/** The names of an HTML page and what stands directly around each: the element that holds it. */
const holders = (page: string, name: string) =>
  [...page.matchAll(new RegExp(`(<[^<>]*>)?${name}(<[^<>]*>)?`, 'g'))].map((m) => `${m[1]}…${m[2]}`);

test('when a certificate is printed, then the name stands alone in a <bdi>', async () => {
  const page = await certificateHtml(
    {
      language: 'en',
      assessmentTitle: 'Distance Learning Readiness',
      providerName: 'Northfield College',
      signatory: 'Dr. Ada Byron',
      verificationBase: 'https://readiness.example.edu/verify/',
    },
    '',
    {
      name: NAME,
      percentage: 92,
      awardedAt: new Date('2026-02-24T10:00:00Z'),
      code: 'RDY-7K3M-Q9TX',
      nameSize: 38,
    },
  );
  expect(holders(page, NAME)).toEqual(['<bdi>…</bdi>']);
});

test('when a report is printed, then the name is in a <bdi> both on the page and in its footer, escaped', () => {
  const name = `${NAME} <i>`;
  const { canRetake: _, ...result } = recordedResult(resultRecorded(resultFacts({ name })));
  const page = reportHtml(
    {
      result,
      version: undefined,
      providerName: 'Northfield College',
      generatedAt: new Date('2026-11-21T09:00:00Z'),
    },
    '',
  );
  expect(holders(page, `${NAME} &lt;i&gt;`)).toEqual(['<bdi>…</bdi>', '<bdi>…</bdi>']);
  expect(page).not.toContain('<i>');
});
