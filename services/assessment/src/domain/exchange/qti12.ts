import { posix } from 'node:path';
import { htmlToText } from './html-text';
import { createCollector, itemName, packagedFile, type Collector, type Imported } from './model';
import { child, childrenNamed, descendants, parseXml, textOf, type XmlElement } from './xml';

/** Canvas's question types that are not Readiness's, and why, as the preview says it. */
const UNSUPPORTED: Record<string, string> = {
  multiple_answers_question: 'multiple correct answers',
  matching_question: 'matching questions are not supported',
  calculated_question: 'formula question',
  numerical_question: 'numerical questions are not supported',
  short_answer_question: 'short-answer questions are not supported',
  fill_in_multiple_blanks_question: 'fill-in-the-blank questions are not supported',
  multiple_dropdowns_question: 'drop-down questions are not supported',
  essay_question: 'typed answers are not supported (Readiness collects files, not text)',
  text_only_question: 'a text-only item holds no question',
};

/** The `qtimetadatafield`s under `node`, label to entry. */
function metadata(node: XmlElement | undefined): Map<string, string> {
  const fields = node ? descendants(node, (e) => e.name === 'qtimetadatafield') : [];
  return new Map(
    fields.map((f) => [textOf(child(f, 'fieldlabel')).trim(), textOf(child(f, 'fieldentry')).trim()]),
  );
}

const mattext = (node: XmlElement | undefined) =>
  textOf(node && descendants(node, (e) => e.name === 'mattext')[0]);

/** Canvas links a course file as `$IMS-CC-FILEBASE$/…`, kept in the package under `web_resources/`. */
const packagePath = (src: string, from: string) => {
  const decoded = decodeURIComponent(src);
  return decoded.startsWith('$IMS-CC-FILEBASE$/')
    ? posix.normalize(`web_resources/${decoded.slice('$IMS-CC-FILEBASE$/'.length)}`)
    : posix.normalize(posix.join(posix.dirname(from), decoded));
};

/** The choices an item's response conditions give full marks (a `setvar` of 100, as Canvas writes them). */
function rightChoices(item: XmlElement): string[] {
  const conditions = descendants(item, (e) => e.name === 'respcondition');
  return conditions
    .filter((c) => descendants(c, (e) => e.name === 'setvar').some((s) => Number(textOf(s).trim()) >= 100))
    .flatMap((c) => descendants(c, (e) => e.name === 'varequal').map((v) => textOf(v).trim()));
}

function readItem(
  item: XmlElement,
  section: number,
  path: string,
  files: Map<string, Buffer>,
  collector: Collector,
) {
  const meta = metadata(child(item, 'itemmetadata'));
  const type = meta.get('question_type') ?? '';
  const presentation = child(item, 'presentation');
  const { text, references } = htmlToText(mattext(child(presentation, 'material')));
  const name = itemName(item.attrs.title, text);
  const unsupported = UNSUPPORTED[type];
  if (unsupported) {
    collector.leaveOut(name, unsupported);
    return;
  }
  const file = packagedFile(collector, name, references, (src) => packagePath(src, path), files);
  const base = {
    id: item.attrs.ident,
    question: text,
    section,
    points: Number(meta.get('points_possible')) || 1,
    required: true,
    ...(file ? { file } : {}),
  };
  if (type === 'file_upload_question') {
    collector.add(name, { ...base, type: 'file_upload' });
    return;
  }
  const lid = presentation && descendants(presentation, (e) => e.name === 'response_lid')[0];
  if (!lid || (type !== 'multiple_choice_question' && type !== 'true_false_question' && type !== '')) {
    collector.leaveOut(name, `${(type || 'this kind of').replace(/_/g, ' ')} questions are not supported`);
    return;
  }
  if ((lid.attrs.rcardinality ?? 'Single').toLowerCase() !== 'single') {
    collector.leaveOut(name, 'multiple correct answers');
    return;
  }
  const options = descendants(lid, (e) => e.name === 'response_label').map((l) => ({
    id: l.attrs.ident ?? '',
    text: htmlToText(mattext(l)).text,
  }));
  const right = [...new Set(rightChoices(item))];
  if (right.length !== 1 || !options.some((o) => o.id === right[0])) {
    collector.leaveOut(name, right.length > 1 ? 'multiple correct answers' : 'no answer is marked right');
    return;
  }
  const texts = options.map((o) => o.text.toLowerCase()).sort();
  if (type === 'true_false_question' || (options.length === 2 && texts.join() === 'false,true')) {
    const says = options.find((o) => o.id === right[0])!.text.toLowerCase();
    collector.add(name, {
      ...base,
      type: 'yes_no',
      correctAnswer: says === 'true' || says === 'yes' ? 'yes' : 'no',
    });
    return;
  }
  if (options.length > 20) {
    collector.leaveOut(name, 'more than 20 answers');
    return;
  }
  collector.add(name, { ...base, type: 'multiple_choice', options, correctAnswer: right[0]! });
}

/** One QTI 1.2 document's assessment: its root section's items, then each question group as a section of its own. */
function readAssessment(root: XmlElement, path: string, files: Map<string, Buffer>, collector: Collector) {
  for (const assessment of childrenNamed(root, 'assessment')) {
    const title = assessment.attrs.title?.trim() || 'Imported questions';
    const limit = Number(metadata(child(assessment, 'qtimetadata')).get('qmd_timelimit'));
    if (limit > 0) collector.imported.settings.timeLimit ??= Math.round(limit);
    collector.imported.settings.title ??= title;
    const walk = (section: XmlElement, sectionTitle: string) => {
      const items = childrenNamed(section, 'item');
      if (items.length) {
        const id = collector.section(sectionTitle);
        for (const item of items) readItem(item, id, path, files, collector);
        const selection = child(child(section, 'selection_ordering'), 'selection');
        const pick = Number(textOf(child(selection, 'selection_number')).trim());
        const count = collector.imported.questions.filter((q) => q.section === id).length;
        const s = collector.imported.sections.find((x) => x.id === id)!;
        if (pick > 0 && pick < count) s.draw = pick;
      }
      for (const group of childrenNamed(section, 'section'))
        walk(group, group.attrs.title?.trim() || sectionTitle);
    };
    for (const section of childrenNamed(assessment, 'section')) walk(section, title);
  }
}

const isQti12 = (text: string) => /<questestinterop\b/.test(text.slice(0, 4000));

/**
 * QTI 1.2 as Canvas exports it (a quiz export `.zip`, or the quizzes of a course `.imscc`): each quiz's root section
 * a section named after the quiz, each question group a section of its own with its pick count as the draw; true/false,
 * single-answer multiple choice and file upload questions read, every other type left out with its reason. A course
 * cartridge holds each quiz twice: Canvas's own copy (`non_cc_assessments/`) is read and the Common Cartridge one not.
 */
export function fromQti12(files: Map<string, Buffer>): Imported {
  const collector = createCollector();
  const documents = [...files.keys()].filter(
    (p) => /\.(xml|qti)$/i.test(p) && p !== 'imsmanifest.xml' && isQti12(files.get(p)!.toString('utf8')),
  );
  const canvasOwn = documents.filter((p) => p.startsWith('non_cc_assessments/'));
  for (const path of canvasOwn.length ? canvasOwn : documents) {
    readAssessment(parseXml(files.get(path)!.toString('utf8'), path), path, files, collector);
  }
  return collector.imported;
}

/** True when a package holds QTI 1.2 documents rather than QTI 2.1/3.0 ones. */
export const holdsQti12 = (files: Map<string, Buffer>) =>
  [...files.entries()].some(([p, data]) => /\.(xml|qti)$/i.test(p) && isQti12(data.toString('utf8')));
