import { posix } from 'node:path';
import type { AssessmentContent, Question } from '../assessment';
import { htmlToText, textToHtml } from './html-text';
import {
  createCollector,
  itemName,
  packagedFile,
  type Collector,
  type ExportFiles,
  type Imported,
} from './model';
import {
  childrenNamed,
  descendants,
  escapeXml,
  isElement,
  parseXml,
  serialize,
  textOf,
  type XmlElement,
  type XmlNode,
} from './xml';

const ASI = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';
const CP = 'http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const ASI_XSD = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqti_asiv3p0_v1p0.xsd';
const CP_XSD = 'https://purl.imsglobal.org/spec/qti/v3p0/schema/xsd/imsqtiv3p0_imscpv1p2_v1p0.xsd';
const MATCH_CORRECT = 'https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml';

/** A QTI identifier (an XML name without a colon) made from an id: the id itself when it is one. */
const identifier = (id: string, fallback: string) =>
  /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(id) ? id : `${fallback}-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

const esc = escapeXml;

function itemXml(q: Question, id: string, content: AssessmentContent, fileHref?: string): string {
  const body = [`<div class="question">${textToHtml(q.question)}</div>`];
  if (fileHref && q.downloadableFile) {
    body.push(`<p><a href="${esc(fileHref)}">${esc(q.downloadableFile.originalName)}</a></p>`);
  }
  let response: string;
  let processing = '';
  if (q.type === 'file_upload') {
    response = '<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="file"/>';
    const prompt = q.fileInstructions ? `<qti-prompt>${esc(q.fileInstructions)}</qti-prompt>` : '';
    body.push(`<qti-upload-interaction response-identifier="RESPONSE">${prompt}</qti-upload-interaction>`);
  } else {
    const options =
      q.type === 'yes_no'
        ? [
            { id: 'yes', text: 'Yes' },
            { id: 'no', text: 'No' },
          ]
        : (q.options ?? []);
    const correct = options.find((o) => o.id === q.correctAnswer);
    response = `<qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier"><qti-correct-response><qti-value>${esc(identifier(correct?.id ?? '', 'option'))}</qti-value></qti-correct-response></qti-response-declaration>`;
    const shuffle = q.type === 'multiple_choice' && content.shuffleOptions;
    body.push(
      `<qti-choice-interaction response-identifier="RESPONSE" max-choices="1" shuffle="${shuffle}">${options
        .map(
          (o) =>
            `<qti-simple-choice identifier="${esc(identifier(o.id, 'option'))}">${esc(o.text)}</qti-simple-choice>`,
        )
        .join('')}</qti-choice-interaction>`,
    );
    processing = `<qti-response-processing template="${MATCH_CORRECT}"/>`;
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<qti-assessment-item xmlns="${ASI}" xmlns:xsi="${XSI}" xsi:schemaLocation="${ASI} ${ASI_XSD}" identifier="${esc(id)}" title="${esc(q.id)}" adaptive="false" time-dependent="false" xml:lang="en">`,
    response,
    '<qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>',
    `<qti-outcome-declaration identifier="MAXSCORE" cardinality="single" base-type="float"><qti-default-value><qti-value>${q.points}</qti-value></qti-default-value></qti-outcome-declaration>`,
    `<qti-item-body>${body.join('')}</qti-item-body>`,
    processing,
    '</qti-assessment-item>',
    '',
  ].join('\n');
}

/** What a QTI package cannot hold of a version, written to the package's README.txt. */
const README = (content: AssessmentContent, version: number) =>
  [
    `"${content.title}", version ${version}, exported from Readiness as a QTI 3.0 content package.`,
    '',
    'imsmanifest.xml lists the test (test.xml), one item per question (items/) and the question files (files/).',
    "The time limit is the test's qti-time-limits (max-time, in seconds); the pass mark is the test outcome PASS_MARK (a percentage); each",
    "question's points are its item's MAXSCORE; a required question is an item reference that does not allow skipping;",
    "the questions drawn per section are the section's qti-selection; shuffled questions and options are qti-ordering and",
    "the choice interactions' shuffle.",
    '',
    'Not in this package:',
    "- the translations: the package is in English, the version's own language;",
    '- the description and the practice question, which QTI has no place for.',
    '',
  ].join('\r\n');

/**
 * A version as a QTI 3.0 content package: `imsmanifest.xml`, `test.xml` with one qti-assessment-section per
 * section, one item per question, the question files, and a README.txt of what the package does not hold.
 */
export function toQtiPackage(content: AssessmentContent, version: number, files: ExportFiles) {
  const entries: Record<string, Uint8Array> = {};
  const put = (path: string, text: string) => (entries[path] = Buffer.from(text, 'utf8'));
  const ids = new Map(content.questions.map((q, i) => [q.id, identifier(q.id, `item${i + 1}`)]));
  const resources: string[] = [];
  for (const q of content.questions) {
    const id = ids.get(q.id)!;
    const file = q.downloadableFile && files.get(q.downloadableFile.filename);
    const filePath = file ? `files/${id}/${file.originalName.replace(/[/\\]/g, '_')}` : undefined;
    if (file && filePath) {
      entries[filePath] = file.data;
      resources.push(
        `<resource identifier="file-${esc(id)}" type="webcontent" href="${esc(filePath)}"><file href="${esc(filePath)}"/></resource>`,
      );
    }
    const href = `items/${id}.xml`;
    put(href, itemXml(q, id, content, filePath && posix.relative('items', filePath)));
    resources.push(
      `<resource identifier="item-${esc(id)}" type="imsqti_item_xmlv3p0" href="${esc(href)}"><file href="${esc(href)}"/>${file ? `<dependency identifierref="file-${esc(id)}"/>` : ''}</resource>`,
    );
  }
  const sections = content.sections.map((s) => {
    const refs = content.questions
      .filter((q) => q.section === s.id)
      .map((q) => {
        const id = ids.get(q.id)!;
        return `<qti-assessment-item-ref identifier="${esc(id)}" href="items/${esc(id)}.xml"><qti-item-session-control allow-skipping="${!q.required}"/></qti-assessment-item-ref>`;
      });
    const selection = s.draw ? `<qti-selection select="${s.draw}"/>` : '';
    const ordering = content.shuffleQuestions ? '<qti-ordering shuffle="true"/>' : '';
    const rubric = s.description
      ? `<qti-rubric-block use="instructions" view="candidate"><qti-content-body>${textToHtml(s.description)}</qti-content-body></qti-rubric-block>`
      : '';
    return `<qti-assessment-section identifier="section-${s.id}" title="${esc(s.title)}" visible="true">${selection}${ordering}${rubric}${refs.join('')}</qti-assessment-section>`;
  });
  put(
    'test.xml',
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<qti-assessment-test xmlns="${ASI}" xmlns:xsi="${XSI}" xsi:schemaLocation="${ASI} ${ASI_XSD}" identifier="readiness-v${version}" title="${esc(content.title)}">`,
      `<qti-outcome-declaration identifier="PASS_MARK" cardinality="single" base-type="float"><qti-default-value><qti-value>${content.passingScore}</qti-value></qti-default-value></qti-outcome-declaration>`,
      `<qti-time-limits max-time="${content.timeLimit * 60}"/>`,
      '<qti-test-part identifier="part-1" navigation-mode="nonlinear" submission-mode="simultaneous">',
      ...sections,
      '</qti-test-part>',
      '</qti-assessment-test>',
      '',
    ].join('\n'),
  );
  resources.unshift(
    `<resource identifier="test" type="imsqti_test_xmlv3p0" href="test.xml"><file href="test.xml"/>${[...ids.values()].map((id) => `<dependency identifierref="item-${esc(id)}"/>`).join('')}</resource>`,
  );
  put(
    'imsmanifest.xml',
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<manifest xmlns="${CP}" xmlns:xsi="${XSI}" xsi:schemaLocation="${CP} ${CP_XSD}" identifier="readiness-v${version}-package">`,
      '<metadata><schema>QTI Package</schema><schemaversion>3.0.0</schemaversion></metadata>',
      '<organizations/>',
      `<resources>${resources.join('')}</resources>`,
      '</manifest>',
      '',
    ].join('\n'),
  );
  put('README.txt', README(content, version));
  return entries;
}

/** A QTI name compared across versions: `qti-choice-interaction` (3.0) and `choiceInteraction` (2.1) alike. */
const qtiName = (name: string) =>
  name.startsWith('qti-') ? name.slice(4) : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const is = (node: XmlNode, name: string): node is XmlElement =>
  isElement(node) && qtiName(node.name) === name;
const kids = (node: XmlElement | undefined, name: string) =>
  childrenNamed(node, name, (a, b) => qtiName(a) === b);
const first = (node: XmlElement | undefined, name: string) => kids(node, name)[0];
const attr = (node: XmlElement | undefined, name: string) => {
  if (!node) return undefined;
  const camel = name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
  return node.attrs[name] ?? node.attrs[camel];
};

const UNSUPPORTED: Record<string, string> = {
  'match-interaction': 'matching questions are not supported',
  'associate-interaction': 'matching questions are not supported',
  'gap-match-interaction': 'gap-match questions are not supported',
  'inline-choice-interaction': 'inline-choice questions are not supported',
  'text-entry-interaction': 'short-answer questions are not supported',
  'extended-text-interaction': 'typed answers are not supported (Readiness collects files, not text)',
  'order-interaction': 'ordering questions are not supported',
  'hotspot-interaction': 'hotspot questions are not supported',
  'graphic-gap-match-interaction': 'graphic questions are not supported',
  'slider-interaction': 'slider questions are not supported',
  'drawing-interaction': 'drawing questions are not supported',
  'media-interaction': 'media questions are not supported',
  'custom-interaction': 'custom interactions are not supported',
  'portable-custom-interaction': 'custom interactions are not supported',
};

const isInteraction = (e: XmlElement) => qtiName(e.name).endsWith('-interaction');

/** A path in the package, from the path of the file that refers to it. */
const resolve = (from: string, href: string) =>
  posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(href)));

/** Where an item's section, points and required come from when a test names them. */
interface ItemRef {
  section: number;
  required?: boolean;
}

/** One item read into the collector, its files looked up relative to the item's own path. */
function readItem(
  path: string,
  xml: string,
  ref: ItemRef,
  files: Map<string, Buffer>,
  collector: Collector,
): void {
  const root = parseXml(xml, path);
  if (!is(root, 'assessment-item')) {
    collector.leaveOut(path, 'not a QTI item');
    return;
  }
  const body = first(root, 'item-body');
  const interactions = body ? descendants(body, isInteraction) : [];
  const withoutInteractions = (node: XmlNode): XmlNode[] =>
    !isElement(node)
      ? [node]
      : isInteraction(node)
        ? []
        : [{ ...node, children: node.children.flatMap(withoutInteractions) }];
  const bodyHtml = (body?.children ?? []).flatMap(withoutInteractions).map(serialize).join('');
  const { references } = htmlToText(bodyHtml);
  // A link to a file of the package is the file itself: kept as the question's file, not as text.
  const { text } = htmlToText(
    bodyHtml.replace(/<a\b[^<>]*href="(?![a-z][a-z0-9+.-]*:)[^"<>]*"[^<>]*>[\s\S]*?(?:<\/a>|$)/gi, ''),
  );
  const name = itemName(attr(root, 'title'), text);
  if (interactions.length !== 1) {
    collector.leaveOut(
      name,
      interactions.length
        ? 'items with more than one interaction are not supported'
        : 'the item asks nothing',
    );
    return;
  }
  const interaction = interactions[0]!;
  const kind = qtiName(interaction.name);
  const file = packagedFile(collector, name, references, (src) => resolve(path, src), files);
  const maxScore = kids(root, 'outcome-declaration').find((o) => attr(o, 'identifier') === 'MAXSCORE');
  const points = Number(textOf(first(first(maxScore, 'default-value'), 'value')).trim()) || 1;
  const base = {
    id: attr(root, 'identifier'),
    question: text,
    section: ref.section,
    points,
    required: ref.required ?? true,
    ...(file ? { file } : {}),
  };
  if (kind === 'upload-interaction') {
    const instructions = htmlToText(serialize(first(interaction, 'prompt') ?? { text: '' })).text;
    collector.add(name, {
      ...base,
      type: 'file_upload',
      ...(instructions ? { fileInstructions: instructions } : {}),
    });
    return;
  }
  if (kind !== 'choice-interaction') {
    collector.leaveOut(name, UNSUPPORTED[kind] ?? `${kind.replace(/-/g, ' ')} questions are not supported`);
    return;
  }
  const declaration = kids(root, 'response-declaration').find(
    (d) => attr(d, 'identifier') === attr(interaction, 'response-identifier'),
  );
  const correct = kids(first(declaration, 'correct-response'), 'value').map((v) => textOf(v).trim());
  if (correct.length > 1 || attr(declaration, 'cardinality') === 'multiple') {
    collector.leaveOut(
      name,
      correct.length > 1 ? 'multiple correct answers' : 'multiple-response questions are not supported',
    );
    return;
  }
  if (correct.length === 0) {
    collector.leaveOut(name, 'no answer is marked right');
    return;
  }
  const prompt = htmlToText(serialize(first(interaction, 'prompt') ?? { text: '' })).text;
  const options = kids(interaction, 'simple-choice').map((c) => ({
    id: attr(c, 'identifier') ?? '',
    text: htmlToText(c.children.map(serialize).join('')).text,
  }));
  const question = [text, prompt].filter(Boolean).join('\n\n');
  const answers = new Set(options.map((o) => o.id.toLowerCase()));
  const texts = new Set(options.map((o) => o.text.toLowerCase()));
  const yesNo =
    options.length === 2 &&
    ((answers.has('yes') && answers.has('no')) ||
      (answers.has('true') && answers.has('false')) ||
      (texts.has('yes') && texts.has('no')) ||
      (texts.has('true') && texts.has('false')));
  const right = options.find((o) => o.id === correct[0]);
  if (!right) {
    collector.leaveOut(name, 'its right answer is not one of its choices');
    return;
  }
  if (yesNo) {
    const positive = ['yes', 'true'];
    const says = positive.includes(right.id.toLowerCase()) || positive.includes(right.text.toLowerCase());
    collector.add(name, { ...base, question, type: 'yes_no', correctAnswer: says ? 'yes' : 'no' });
    return;
  }
  if (options.length > 20) {
    collector.leaveOut(name, 'more than 20 answers');
    return;
  }
  if (attr(interaction, 'shuffle') === 'true') collector.imported.settings.shuffleOptions = true;
  collector.add(name, { ...base, question, type: 'multiple_choice', options, correctAnswer: right.id });
}

/**
 * A QTI 3.0 or 2.1 package read into the editor's model: the test's sections (with their draw, time limit and
 * pass mark when it has them) and their items in order, then any item the test does not name, in a section of its
 * own. Files are read from the package only, by the paths the items give.
 */
export function fromQtiPackage(files: Map<string, Buffer>): Imported {
  const collector = createCollector();
  const text = (path: string) => files.get(path)?.toString('utf8');
  const manifestXml = text('imsmanifest.xml');
  const resources = manifestXml
    ? descendants(parseXml(manifestXml, 'imsmanifest.xml'), (e) => e.name === 'resource')
    : [];
  const itemPaths = resources.length
    ? resources.filter((r) => /^imsqti_item/i.test(r.attrs.type ?? '')).map((r) => r.attrs.href ?? '')
    : [...files.keys()].filter(
        (p) => p.endsWith('.xml') && /<(qti-)?assessment-?[iI]tem\b/.test(text(p) ?? ''),
      );
  const testPath =
    resources.find((r) => /^imsqti_test/i.test(r.attrs.type ?? ''))?.attrs.href ??
    [...files.keys()].find((p) => p.endsWith('.xml') && /<(qti-)?assessment-?[tT]est\b/.test(text(p) ?? ''));
  const read = new Set<string>();
  const testXml = testPath ? text(testPath) : undefined;
  if (testPath && testXml) {
    const test = parseXml(testXml, testPath);
    const settings = collector.imported.settings;
    const title = attr(test, 'title');
    if (title) settings.title = title;
    const maxTime = Number(attr(first(test, 'time-limits'), 'max-time'));
    if (maxTime > 0) settings.timeLimit = Math.max(1, Math.round(maxTime / 60));
    const pass = kids(test, 'outcome-declaration').find((o) => attr(o, 'identifier') === 'PASS_MARK');
    const passMark = Number(textOf(first(first(pass, 'default-value'), 'value')).trim());
    if (pass && Number.isFinite(passMark))
      settings.passingScore = Math.min(100, Math.max(0, Math.round(passMark)));
    const sections = descendants(test, (e) => is(e, 'assessment-section'));
    if (sections.some((s) => first(s, 'ordering') && attr(first(s, 'ordering'), 'shuffle') === 'true')) {
      settings.shuffleQuestions = true;
    }
    for (const s of sections) {
      const refs = kids(s, 'assessment-item-ref');
      if (!refs.length) continue;
      const wanted = /^section-(\d+)$/.exec(attr(s, 'identifier') ?? '');
      const rubric = first(s, 'rubric-block');
      const id = collector.section(
        attr(s, 'title') || attr(s, 'identifier') || 'Imported questions',
        rubric ? htmlToText(serialize(rubric)).text : '',
        wanted ? Number(wanted[1]) : undefined,
      );
      const select = Number(attr(first(s, 'selection'), 'select'));
      for (const ref of refs) {
        const path = resolve(testPath, attr(ref, 'href') ?? '');
        const xml = text(path);
        read.add(path);
        if (!xml) {
          collector.leaveOut(attr(ref, 'identifier') ?? path, 'its item file is not in the package');
          continue;
        }
        const skipping = attr(first(ref, 'item-session-control'), 'allow-skipping');
        readItem(
          path,
          xml,
          { section: id, required: skipping === undefined ? undefined : skipping !== 'true' },
          files,
          collector,
        );
      }
      const section = collector.imported.sections.find((x) => x.id === id)!;
      const count = collector.imported.questions.filter((q) => q.section === id).length;
      if (select > 0 && select < count) section.draw = select;
    }
  }
  const rest = itemPaths.map((p) => posix.normalize(p)).filter((p) => !read.has(p));
  for (const path of rest) {
    const xml = text(path);
    if (!xml) {
      collector.leaveOut(path, 'its item file is not in the package');
      continue;
    }
    readItem(path, xml, { section: collector.section('Imported questions') }, files, collector);
  }
  return collector.imported;
}
