import { pointsToPass, shownPercentage } from '@readiness/contracts';
import type { ResultCopy, VersionCopy } from '../../data-access/records';
import { SANS, SERIF } from './fonts';
import { dateTime, ordinal, performanceLevel } from './format';
import { html, isolatedName, trusted, type SafeHtml } from './html';
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
  const questions = new Map(version?.questions.map((q) => [q.id, q]) ?? []);
  const sectionTitles = new Map<number, string>([
    ...(version?.sections.map((s) => [s.id, s.title] as [number, string]) ?? []),
    ...result.sections.map((s) => [s.sectionId, s.title] as [number, string]),
  ]);
  // The percentages as every surface shows them (docs/scoring.md): a fail never reads as the pass mark.
  const percentage = shownPercentage(result.score, result.totalPoints);
  const level = performanceLevel(percentage);
  const timeline = timelineLines(result, version);
  // One number per question wherever it shows: its place in the version (as the item analysis numbers it).
  const numbers = new Map(version?.questions.map((q, i) => [q.id, i + 1]) ?? []);
  const answers = [...result.answers].sort((a, b) => {
    const order = (id: string) => numbers.get(id) ?? 0;
    return a.sectionId - b.sectionId || order(a.questionId) - order(b.questionId);
  });

  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>Assessment Report</title>
        <style>
          ${trusted(fontFaces)} @page {
            size: A4;
            margin: 16mm 15mm 18mm;
          }
          * {
            box-sizing: border-box;
          }
          body {
            margin: 0;
            font-family: ${trusted(SANS)};
            font-size: 9.5pt;
            line-height: 1.45;
            color: ${trusted(INK)};
          }
          header {
            display: flex;
            justify-content: space-between;
            align-items: flex-end;
            border-bottom: 0.8mm solid ${trusted(NAVY)};
            padding-bottom: 3mm;
            margin-bottom: 6mm;
          }
          header .provider {
            font-size: 8.5pt;
            font-weight: 600;
            letter-spacing: 0.2em;
            text-transform: uppercase;
            color: ${trusted(NAVY)};
          }
          header h1 {
            font-family: ${trusted(SERIF)};
            font-weight: 600;
            font-size: 24pt;
            margin: 1mm 0 0;
            color: ${trusted(NAVY)};
            line-height: 1.1;
          }
          header .meta {
            text-align: right;
            color: ${trusted(MUTED)};
            font-size: 8.5pt;
          }
          h2 {
            font-size: 11pt;
            font-weight: 700;
            color: ${trusted(NAVY)};
            margin: 7mm 0 2.5mm;
            text-transform: uppercase;
            letter-spacing: 0.06em;
          }
          .grid {
            display: grid;
            grid-template-columns: repeat(2, 1fr);
            gap: 1.5mm 8mm;
          }
          .grid div span {
            display: block;
            color: ${trusted(MUTED)};
            font-size: 8pt;
          }
          .grid div strong {
            font-weight: 600;
            overflow-wrap: anywhere;
          }
          .cards {
            display: grid;
            grid-template-columns: repeat(4, 1fr);
            gap: 3mm;
          }
          .card {
            border: 0.3mm solid #d1d5db;
            border-radius: 2mm;
            padding: 3mm;
          }
          .card span {
            display: block;
            color: ${trusted(MUTED)};
            font-size: 8pt;
          }
          .card strong {
            font-size: 15pt;
            font-weight: 700;
          }
          .passed {
            color: #15803d;
          }
          .failed {
            color: #b91c1c;
          }
          .skipped {
            color: #6b7280;
          }
          table {
            width: 100%;
            border-collapse: collapse;
          }
          th {
            text-align: left;
            font-size: 8pt;
            color: ${trusted(MUTED)};
            font-weight: 600;
            border-bottom: 0.4mm solid #d1d5db;
            padding: 1.5mm 2mm;
          }
          td {
            border-bottom: 0.2mm solid #e5e7eb;
            padding: 2mm;
            vertical-align: top;
          }
          tr {
            break-inside: avoid;
          }
          .num {
            text-align: right;
            white-space: nowrap;
          }
          .bar {
            width: 30mm;
            height: 2.2mm;
            background: #e5e7eb;
            border-radius: 1mm;
            overflow: hidden;
            margin-top: 1mm;
          }
          .bar div {
            height: 100%;
          }
          .q {
            overflow-wrap: anywhere;
          }
          .q small,
          .qno small {
            display: block;
            color: ${trusted(MUTED)};
          }
          .qno {
            white-space: nowrap;
          }
          .qno small {
            white-space: normal;
          }
          .mark {
            font-weight: 700;
            white-space: nowrap;
          }
          .note {
            color: ${trusted(MUTED)};
            margin: 0 0 2mm;
          }
          .timeline td {
            padding-top: 1.2mm;
            padding-bottom: 1.2mm;
          }
          .timeline .when {
            width: 48mm;
            white-space: nowrap;
            color: ${trusted(MUTED)};
            font-variant-numeric: tabular-nums;
          }
          .timeline .notable td:last-child {
            font-weight: 600;
          }
          footer {
            margin-top: 8mm;
            padding-top: 2mm;
            border-top: 0.2mm solid #e5e7eb;
            color: ${trusted(MUTED)};
            font-size: 8pt;
          }
        </style>
      </head>
      <body>
        <header>
          <div>
            <div class="provider">${content.providerName}</div>
            <h1>Assessment Report</h1>
            <div>${result.assessmentTitle}</div>
          </div>
          <div class="meta">
            Assessment code<br /><strong style="color:${trusted(INK)}">${result.assessmentCode}</strong
            ><br />Generated ${dateTime(content.generatedAt)}
          </div>
        </header>

        <h2>Student Information</h2>
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
        </div>

        <h2>Overview</h2>
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
            <span>Performance level</span><strong style="font-size:12pt">${level}</strong>
          </div>
        </div>

        <h2>Section Performance</h2>
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
        </table>

        <h2>Question-by-Question Results</h2>
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
                    position && position !== number
                      ? html`<small>${ordinal(position)} on this paper</small>`
                      : ''
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
        </table>

        <h2>Attempt Timeline</h2>
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
        }

        <footer>
          ${content.providerName} · Assessment report for ${isolatedName(result.name)} ·
          ${result.assessmentCode}
        </footer>
      </body>
    </html>`.value;
}
