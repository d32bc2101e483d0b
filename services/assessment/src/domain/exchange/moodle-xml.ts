import { TRANSLATION_LANGUAGES, type TranslatedTexts, type TranslationLanguage } from '@readiness/contracts';
import type { AssessmentContent, Question } from '../assessment';
import { TEXT_LIMITS } from '../translations';
import { htmlToText, textToHtml } from './html-text';
import {
  createCollector,
  itemName,
  type Collector,
  optionId,
  type ExportFiles,
  type Imported,
  type ImportedFile,
} from './model';
import { fromMultilang, toMultilang, type Texts } from './multilang';
import { cdata, child, childrenNamed, escapeXml, textOf, type XmlElement } from './xml';

/** The tag that marks a question students may leave unanswered (Moodle has no such setting of its own). */
const OPTIONAL_TAG = 'optional';
/** The paragraph of a file question's text that holds its instructions for the file. */
const INSTRUCTIONS_CLASS = 'readiness-file-instructions';

/** Moodle writes a `/` inside a category name as `//`, since `/` separates the path. */
const categoryPart = (name: string) => name.replace(/\//g, '//');

const text = (value: string) => `<text>${cdata(value)}</text>`;

/** A text with its translations, each picked from a language's translated texts. */
function textsOf(
  content: AssessmentContent,
  en: string,
  pick: (t: TranslatedTexts) => string | undefined,
): Texts {
  const texts: Texts = { en };
  for (const l of TRANSLATION_LANGUAGES) {
    const translated = content.translations[l] && pick(content.translations[l]);
    if (translated) texts[l] = translated;
  }
  return texts;
}

const inlineHtml = (value: string) => escapeXml(value).replace(/\n/g, '<br>');

function questionXml(q: Question, content: AssessmentContent, files: ExportFiles): string {
  const file = q.downloadableFile && files.get(q.downloadableFile.filename);
  const translated = (t: TranslatedTexts) => t.questions?.[q.id];
  let html = toMultilang(
    textsOf(content, q.question, (t) => translated(t)?.question),
    textToHtml,
  );
  if (q.type === 'file_upload' && q.fileInstructions) {
    const instructions = textsOf(content, q.fileInstructions, (t) => translated(t)?.fileInstructions);
    html += `<p class="${INSTRUCTIONS_CLASS}">${toMultilang(instructions, inlineHtml)}</p>`;
  }
  if (file) {
    html += `<p><a href="@@PLUGINFILE@@/${encodeURIComponent(file.originalName)}">${escapeXml(file.originalName)}</a></p>`;
  }
  const embedded = file
    ? `<file name="${escapeXml(file.originalName)}" path="/" encoding="base64">${file.data.toString('base64')}</file>`
    : '';
  const head = [
    `<name>${text(q.id)}</name>`,
    `<questiontext format="html">${text(html)}${embedded}</questiontext>`,
    `<generalfeedback format="html">${text('')}</generalfeedback>`,
    `<defaultgrade>${q.points}</defaultgrade>`,
    `<penalty>0</penalty>`,
    `<hidden>0</hidden>`,
    `<idnumber>${escapeXml(q.id)}</idnumber>`,
  ];
  const tags = q.required ? '' : `<tags><tag>${text(OPTIONAL_TAG)}</tag></tags>`;
  if (q.type === 'yes_no') {
    const answer = (value: 'true' | 'false', right: boolean) =>
      `<answer fraction="${right ? 100 : 0}" format="moodle_auto_format">${text(value)}<feedback format="html">${text('')}</feedback></answer>`;
    return `<question type="truefalse">${head.join('')}${answer('true', q.correctAnswer === 'yes')}${answer('false', q.correctAnswer === 'no')}${tags}</question>`;
  }
  if (q.type === 'multiple_choice') {
    const answers = (q.options ?? []).map(
      (o) =>
        `<answer fraction="${o.id === q.correctAnswer ? 100 : 0}" format="html">${text(
          toMultilang(
            textsOf(content, o.text, (t) => translated(t)?.options?.[o.id]),
            textToHtml,
          ),
        )}<feedback format="html">${text('')}</feedback></answer>`,
    );
    return `<question type="multichoice">${head.join('')}<single>true</single><shuffleanswers>${content.shuffleOptions ? 1 : 0}</shuffleanswers><answernumbering>abc</answernumbering>${answers.join('')}${tags}</question>`;
  }
  return `<question type="essay">${head.join('')}<responseformat>noinline</responseformat><responserequired>0</responserequired><responsefieldlines>0</responsefieldlines><attachments>1</attachments><attachmentsrequired>${q.required ? 1 : 0}</attachmentsrequired><graderinfo format="html">${text('')}</graderinfo><responsetemplate format="html">${text('')}</responsetemplate>${tags}</question>`;
}

/**
 * A version as Moodle XML: one category per section (under a category named after the assessment), true/false,
 * single-answer multiple choice, and essays that take one attachment for file questions; points as default
 * grades, a question's file embedded in its text (`@@PLUGINFILE@@`). Translations, the time limit, the pass mark
 * and the draw are not question-bank settings: the comment at the top says so.
 */
export function toMoodleXml(content: AssessmentContent, files: ExportFiles): string {
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<!-- Exported from Readiness: "${escapeXml(content.title).replace(/--/g, '- -')}". Not held by Moodle XML, so not in this file: the description, the time limit (${content.timeLimit} minutes), the pass mark (${content.passingScore} %), the practice question, questions drawn per section, the order settings, and the translations of the title, the description and the section titles. The other translations are Moodle's multi-language spans (the "Multi-language content" filter shows each reader theirs). -->`,
    '<quiz>',
  ];
  for (const section of content.sections) {
    const path = `$course$/top/${categoryPart(content.title)}/${categoryPart(section.title)}`;
    parts.push(
      `<question type="category"><category>${text(path)}</category><info format="html">${text(
        toMultilang(
          textsOf(content, section.description, (t) => t.sections?.[section.id]?.description),
          textToHtml,
        ),
      )}</info><idnumber>section-${section.id}</idnumber></question>`,
    );
    for (const q of content.questions.filter((q) => q.section === section.id)) {
      parts.push(questionXml(q, content, files));
    }
  }
  parts.push('</quiz>', '');
  return parts.join('\n');
}

const UNSUPPORTED: Record<string, string> = {
  matching: 'matching questions are not supported',
  randomsamatch: 'matching questions are not supported',
  calculated: 'formula question',
  calculatedsimple: 'formula question',
  calculatedmulti: 'formula question',
  numerical: 'numerical questions are not supported',
  shortanswer: 'short-answer questions are not supported',
  multianswer: 'embedded-answer (Cloze) questions are not supported',
  ddwtos: 'drag-and-drop questions are not supported',
  ddimageortext: 'drag-and-drop questions are not supported',
  ddmarker: 'drag-and-drop questions are not supported',
  gapselect: 'gap-select questions are not supported',
  description: 'a description holds no question',
  random: 'random questions are a quiz setting, not a question',
};

/** Splits a category path on single slashes (`//` is a slash inside a name). */
const categoryNames = (path: string) =>
  path
    .split(/(?<!\/)\/(?!\/)/)
    .map((p) => p.replace(/\/\//g, '/').trim())
    .filter(
      (p) => p && p !== '$course$' && p !== '$module$' && p !== '$system$' && p !== '$cat1$' && p !== 'top',
    );

const number = (node: XmlElement | undefined, fallback: number) => {
  const n = Number(textOf(node).trim());
  return Number.isFinite(n) ? n : fallback;
};

/** A question's text and what it embeds: its file instructions and its one file, when it has one. */
function questionText(q: XmlElement, name: string, collector: ReturnType<typeof createCollector>) {
  const node = child(q, 'questiontext');
  let html = textOf(child(node, 'text'));
  let fileInstructions: Texts | undefined;
  const marked = new RegExp(`<p class="${INSTRUCTIONS_CLASS}">([\\s\\S]*?)(?:</p>|$)`).exec(html);
  if (marked) {
    fileInstructions = plainTexts(marked[1] ?? '');
    html = html.replace(marked[0], '');
  }
  // A link to an embedded file is the file itself: kept as the question's file, not as text.
  html = html.replace(/<a\b[^<>]*@@PLUGINFILE@@[^<>]*>[\s\S]*?(?:<\/a>|$)/gi, '');
  const { references } = htmlToText(html);
  for (const r of references) {
    if (r.kind === 'img' && !r.src.startsWith('@@PLUGINFILE@@')) {
      collector.leaveOut(name, `the image ${r.src.slice(0, 100)} is not kept: remote images are not loaded`);
    }
  }
  const embedded = childrenNamed(node, 'file');
  let file: ImportedFile | undefined;
  if (embedded.length === 1) {
    file = {
      name: embedded[0]!.attrs.name ?? 'file',
      data: Buffer.from(textOf(embedded[0]).trim(), 'base64'),
    };
  } else if (embedded.length > 1) {
    collector.leaveOut(
      name,
      `its ${embedded.length} embedded files are not kept: a question has at most one downloadable file`,
    );
  }
  return { question: plainTexts(html), fileInstructions, file };
}

/** Multi-language HTML as plain text in each of its languages. */
function plainTexts(html: string): Texts {
  const split = fromMultilang(html);
  const texts: Texts = { en: htmlToText(split.en).text };
  for (const l of TRANSLATION_LANGUAGES) {
    const translated = split[l] === undefined ? '' : htmlToText(split[l]).text;
    if (translated) texts[l] = translated;
  }
  return texts;
}

/** The translation of a text in `language` when it has one within the editor's limit for it. */
const within = (texts: Texts | undefined, language: TranslationLanguage, limit: number) => {
  const translated = texts?.[language];
  return translated && translated.length <= limit ? translated : undefined;
};

/** Keeps the translations an imported question's texts carried, under the id it was given. */
function keepTranslations(
  collector: Collector,
  id: string | undefined,
  texts: { question: Texts; fileInstructions?: Texts; options?: { id: string; texts: Texts }[] },
) {
  if (!id) return;
  for (const l of TRANSLATION_LANGUAGES) {
    const question = within(texts.question, l, TEXT_LIMITS.question);
    const fileInstructions = within(texts.fileInstructions, l, TEXT_LIMITS.fileInstructions);
    const options = Object.fromEntries(
      (texts.options ?? []).flatMap((o) => {
        const text = within(o.texts, l, TEXT_LIMITS.option);
        return text ? [[o.id, text]] : [];
      }),
    );
    const entry = {
      ...(question ? { question } : {}),
      ...(fileInstructions ? { fileInstructions } : {}),
      ...(Object.keys(options).length ? { options } : {}),
    };
    if (Object.keys(entry).length) (collector.translationsOf(l).questions ??= {})[id] = entry;
  }
}

/**
 * Moodle XML read into the editor's model: categories become sections (the last part of their path), true/false
 * becomes yes/no, single-answer multiple choice stays, an essay that takes attachments becomes a file question;
 * anything else is listed as left out with its reason.
 */
export function fromMoodleXml(root: XmlElement): Imported {
  const collector = createCollector();
  let section: { title: string; description: Texts; id?: number } | undefined;
  /** The current category's section, made when its first question is read, its description's translations kept. */
  const sectionId = () => {
    const id = collector.section(
      section?.title ?? 'Imported questions',
      section?.description.en ?? '',
      section?.id,
    );
    for (const l of TRANSLATION_LANGUAGES) {
      const description = within(section?.description, l, TEXT_LIMITS.sectionDescription);
      if (description) (collector.translationsOf(l).sections ??= {})[String(id)] = { description };
    }
    return id;
  };
  const paths: string[][] = [];
  for (const q of childrenNamed(root, 'question')) {
    const type = q.attrs.type ?? '';
    if (type === 'category') {
      const names = categoryNames(textOf(child(child(q, 'category'), 'text')));
      paths.push(names);
      const idnumber = /^section-(\d+)$/.exec(textOf(child(q, 'idnumber')).trim());
      section = {
        title: names.at(-1) ?? 'Imported questions',
        description: plainTexts(textOf(child(child(q, 'info'), 'text'))),
        id: idnumber ? Number(idnumber[1]) : undefined,
      };
      continue;
    }
    const rawName = textOf(child(child(q, 'name'), 'text')).trim();
    const { question, fileInstructions, file } = questionText(q, itemName(rawName, ''), collector);
    const name = itemName(rawName, question.en);
    const unsupported = UNSUPPORTED[type];
    if (unsupported || !['truefalse', 'multichoice', 'essay'].includes(type)) {
      collector.leaveOut(name, unsupported ?? `${type || 'untyped'} questions are not supported`);
      continue;
    }
    const tags = childrenNamed(child(q, 'tags'), 'tag').map((t) =>
      textOf(child(t, 'text')).trim().toLowerCase(),
    );
    const base = {
      id: textOf(child(q, 'idnumber')).trim() || rawName,
      question: question.en,
      section: sectionId(),
      points: number(child(q, 'defaultgrade'), 1),
      required: !tags.includes(OPTIONAL_TAG),
      ...(file ? { file } : {}),
    };
    const answers = childrenNamed(q, 'answer').map((a) => {
      const texts = plainTexts(textOf(child(a, 'text')));
      return { fraction: Number(a.attrs.fraction ?? 0), text: texts.en, texts };
    });
    const right = answers.filter((a) => a.fraction >= 100);
    if (type === 'truefalse') {
      const answer = right[0]?.text.toLowerCase();
      if (answer !== 'true' && answer !== 'false') {
        collector.leaveOut(name, 'no answer is marked right');
        continue;
      }
      const id = collector.add(name, {
        ...base,
        type: 'yes_no',
        correctAnswer: answer === 'true' ? 'yes' : 'no',
      });
      keepTranslations(collector, id, { question });
    } else if (type === 'multichoice') {
      const single = textOf(child(q, 'single')).trim().toLowerCase();
      if (single === 'false' || single === '0' || right.length > 1) {
        collector.leaveOut(name, 'multiple correct answers');
        continue;
      }
      if (right.length === 0) {
        collector.leaveOut(name, 'no answer is fully right (partial credit is not supported)');
        continue;
      }
      if (answers.length > 20) {
        collector.leaveOut(name, 'more than 20 answers');
        continue;
      }
      const options = answers.map((a, i) => ({ id: optionId(i), text: a.text }));
      const id = collector.add(name, {
        ...base,
        type: 'multiple_choice',
        options,
        correctAnswer: options[answers.indexOf(right[0]!)]!.id,
      });
      keepTranslations(collector, id, {
        question,
        options: answers.map((a, i) => ({ id: optionId(i), texts: a.texts })),
      });
    } else {
      const attachments = number(child(q, 'attachments'), 0);
      if (attachments === 0) {
        collector.leaveOut(
          name,
          'an essay without file attachments is not supported (Readiness collects files, not typed answers)',
        );
        continue;
      }
      const id = collector.add(name, {
        ...base,
        type: 'file_upload',
        required: base.required && number(child(q, 'attachmentsrequired'), 0) !== 0,
        ...(fileInstructions?.en ? { fileInstructions: fileInstructions.en } : {}),
      });
      keepTranslations(collector, id, { question, fileInstructions });
    }
  }
  // The assessment's title is the category all sections share, when they share one (as an export writes them).
  const parents = new Set(paths.map((p) => (p.length > 1 ? p.at(-2) : undefined)));
  const [title] = [...parents];
  if (parents.size === 1 && title) collector.imported.settings.title = title;
  return collector.imported;
}
