import { pointsToPass, shownPercentage } from '@readiness/contracts';
import type { ResultCopy, VersionCopy } from '../../data-access/records';
import { SANS, SERIF } from './fonts';
import { dateTime, ordinal, performanceLevel } from './format';
import { html, isolatedName, trusted, type SafeHtml } from './html';
import { loadStylesheet } from './stylesheets';
import { timelineLines } from './timeline';

export interface ReportContent {
  result: ResultCopy;
  /** The version the student took, when the service has its copy; without it questions show by id. */
  version: VersionCopy | undefined;
  providerName: string;
  generatedAt: Date;
}

const INK = '#1f2937';
const NAVY = '#1e3a8a';
const MUTED = '#6b7280';

/** The report's stylesheet (`styles/report.css`), read once at load. */
const STYLESHEET = trusted(
  loadStylesheet('report.css', { ink: INK, navy: NAVY, muted: MUTED, sans: SANS, serif: SERIF }),
);

const TYPE_NAMES = { yes_no: 'Yes / No', multiple_choice: 'Multiple choice', file_upload: 'File upload' };

function answerText(answer: string, question: VersionCopy['questions'][number] | undefined): string {
  if (!answer) return 'Not answered';
  if (answer === 'file_uploaded') return 'File uploaded';
  if (question?.type === 'yes_no') return answer === 'yes' ? 'Yes' : answer === 'no' ? 'No' : answer;
  if (question?.type === 'multiple_choice') {
    return question.options.find((o) => o.id === answer)?.text ?? answer;
  }
  return answer;
}

function bar(percentage: number): SafeHtml {
  const width = Math.max(0, Math.min(100, percentage));
  const colour = percentage >= 70 ? '#15803d' : percentage >= 50 ? '#b45309' : '#b91c1c';
  return html`<div class="bar"><div style="width:${width}%;background:${colour}"></div></div>`;
}

/** The PDF report of one result (A4 portrait), as the result detail screen shows it; every value escaped. */
export function reportHtml(content: ReportContent, fontFaces: string): string {
  const { result, version } = content;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>Assessment Report</title>
        <style>
          ${trusted(fontFaces)} ${STYLESHEET}
        </style>
      </head>
      <body>
        ${pageHeader(content)} ${studentInformation(result)} ${overview(result)} ${sectionPerformance(result)}
        ${questionResults(result, version)} ${attemptTimeline(result, version)}
        <footer>
          ${content.providerName} · Assessment report for ${isolatedName(result.name)} ·
          ${result.assessmentCode}
        </footer>
      </body>
    </html>`.value;
}

function pageHeader({ result, providerName, generatedAt }: ReportContent): SafeHtml {
  return html`<header>
    <div>
      <div class="provider">${providerName}</div>
      <h1>Assessment Report</h1>
      <div>${result.assessmentTitle}</div>
    </div>
    <div class="meta">
      Assessment code<br /><strong style="color:${trusted(INK)}">${result.assessmentCode}</strong
      ><br />Generated ${dateTime(generatedAt)}
    </div>
  </header>`;
}

function studentInformation(result: ResultCopy): SafeHtml {
  return html`<h2>Student Information</h2>
    <div class="grid">
      <div><span>Name</span><strong>${isolatedName(result.name)}</strong></div>
      <div><span>Email</span><strong>${result.email}</strong></div>
      <div><span>Completed</span><strong>${dateTime(result.completedAt)}</strong></div>
      <div><span>Attempt</span><strong>${result.attemptNumber}</strong></div>
      <div><span>Assessment version</span><strong>${result.version}</strong></div>
      <div>
        <span>Passing score</span
        ><strong
          >${result.passingScore}% (${pointsToPass(result.passingScore, result.totalPoints)} of
          ${result.totalPoints} points)</strong
        >
      </div>
    </div>`;
}

function overview(result: ResultCopy): SafeHtml {
  // The percentages as every surface shows them (docs/scoring.md): a fail never reads as the pass mark.
  const percentage = shownPercentage(result.score, result.totalPoints);
  return html`<h2>Overview</h2>
    <div class="cards">
      <div class="card"><span>Score</span><strong>${result.score} / ${result.totalPoints}</strong></div>
      <div class="card"><span>Percentage</span><strong>${percentage}%</strong></div>
      <div class="card">
        <span>Status</span
        ><strong class="${result.passed ? 'passed' : 'failed'}"
          >${result.passed ? 'Passed' : 'Failed'}</strong
        >
      </div>
      <div class="card">
        <span>Performance level</span><strong style="font-size:12pt">${performanceLevel(percentage)}</strong>
      </div>
    </div>`;
}

function sectionPerformance(result: ResultCopy): SafeHtml {
  return html`<h2>Section Performance</h2>
    <table>
      <thead>
        <tr>
          <th>Section</th>
          <th class="num">Score</th>
          <th class="num">Correct</th>
          <th>Percentage</th>
          <th>Level</th>
        </tr>
      </thead>
      <tbody>
        ${result.sections.map((s) => {
          const shown = shownPercentage(s.score, s.totalPoints);
          return html`<tr>
            <td>${s.title}</td>
            <td class="num">${s.score} / ${s.totalPoints}</td>
            <td class="num">${s.correct} of ${s.questions}</td>
            <td>${shown}%${bar(shown)}</td>
            <td>${performanceLevel(shown)}</td>
          </tr>`;
        })}
      </tbody>
    </table>`;
}

function questionResults(result: ResultCopy, version: VersionCopy | undefined): SafeHtml {
  const questions = new Map(version?.questions.map((q) => [q.id, q]) ?? []);
  const sectionTitles = new Map<number, string>([
    ...(version?.sections.map((s) => [s.id, s.title] as [number, string]) ?? []),
    ...result.sections.map((s) => [s.sectionId, s.title] as [number, string]),
  ]);
  // One number per question wherever it shows: its place in the version (as the item analysis numbers it).
  const numbers = new Map(version?.questions.map((q, i) => [q.id, i + 1]) ?? []);
  const answers = [...result.answers].sort((a, b) => {
    const order = (id: string) => numbers.get(id) ?? 0;
    return a.sectionId - b.sectionId || order(a.questionId) - order(b.questionId);
  });
  return html`<h2>Question-by-Question Results</h2>
    <table>
      <thead>
        <tr>
          <th>#</th>
          <th>Question</th>
          <th>Answer</th>
          <th>Result</th>
          <th class="num">Points</th>
        </tr>
      </thead>
      <tbody>
        ${answers.map((a) => {
          const question = questions.get(a.questionId);
          const number = numbers.get(a.questionId);
          const position = a.paperPosition;
          return html`<tr>
            <td class="qno">
              ${number === undefined ? '—' : `Q${number}`}${
                position && position !== number ? html`<small>${ordinal(position)} on this paper</small>` : ''
              }
            </td>
            <td class="q">
              ${question?.question ?? `Question ${a.questionId}`}<small
                >${sectionTitles.get(a.sectionId) ?? ''}${question ? ` · ${TYPE_NAMES[question.type]}` : ''}</small
              >
            </td>
            <td class="q">${answerText(a.answer, question)}</td>
            <td class="mark ${a.skipped ? 'skipped' : a.isCorrect ? 'passed' : 'failed'}">
              ${a.skipped ? 'Skipped' : a.isCorrect ? 'Correct' : 'Incorrect'}
            </td>
            <td class="num">${a.skipped ? 'not counted' : `${a.points} / ${a.maxPoints}`}</td>
          </tr>`;
        })}
      </tbody>
    </table>`;
}

function attemptTimeline(result: ResultCopy, version: VersionCopy | undefined): SafeHtml {
  const timeline = timelineLines(result, version);
  return html`<h2>Attempt Timeline</h2>
    <p class="note">What happened during this attempt. These are facts, not part of the score.</p>
    ${
      timeline.length === 0
        ? html`<p class="note">No timeline was recorded for this attempt.</p>`
        : html`<table class="timeline">
            <tbody>
              ${timeline.map(
                (line) =>
                  html`<tr class="${line.notable ? 'notable' : ''}">
                    <td class="when">${line.time}</td>
                    <td>${line.text}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }`;
}
