/*
 * The admin app's words for an assessment's content in other languages (the editor's content-language and
 * translations cards, and the files per language): one file of the admin catalogue (see ./index.ts); its ids start
 * with its name.
 */
export default {
  'translations.group.basic': 'Basic Settings',
  'translations.group.practice': 'Practice question',
  'translations.group.section': 'Section {id}',
  'translations.group.question': 'Question {n}',
  'translations.label.title': 'Title',
  'translations.label.description': 'Description',
  'translations.label.practiceText': 'Practice question text',
  'translations.label.practiceOption': 'Practice option {n}',
  'translations.label.sectionTitle': 'Section {id} title',
  'translations.label.sectionDescription': 'Section {id} description',
  'translations.label.questionText': 'Question {n} text',
  'translations.label.questionOption': 'Question {n} option {option}',
  'translations.label.fileInstructions': 'Question {n} file instructions',
  'translations.label.downloadableFile': 'Question {n} downloadable file',
  'translations.card.title': '{language} Translation',
  'translations.field.label': '{label} in {language}',
  'translations.field.english': 'English: <0>{english}</0>',
  'translations.missing': 'Missing',
  'translations.missing.text': 'Students see the English text.',
  'translations.outdated': 'English changed — review',
  'translations.outdated.text':
    'This translation was written for an earlier English text. Update it, or mark it reviewed if it still fits.',
  'translations.outdated.markReviewed': 'Mark reviewed',
  'translations.outdated.markReviewedLabel': 'Mark reviewed: {label} in {language}',
  'translations.file.english': 'English file: <0>{name}</0>',
  'translations.file.hint': 'Accepted: {types}',
  'translations.file.missing': 'Students get the English file.',
  'translations.file.remove': 'Remove',
  'translations.file.removeLabel': 'Remove the {language} file {name} from {label}',
  'translations.file.uploading': 'Uploading the {language} file for {label}',
  'translations.file.typeRefused': 'File upload failed: only {types} files are accepted',
  'translations.file.failed': 'File upload failed',
  'translations.file.progress': '{percent}%',
  'translations.languages.title': 'Content Language',
  'translations.languages.label': 'Content language',
  'translations.languages.help':
    "English is the version's own text. In another language, each text shows its English above a field for the translation; a text left empty is shown to students in English, and a question's file left out is offered in English.",
  'translations.languages.missingLabel': 'Translation status',
  'translations.languages.allTranslated': '{language}: all {total} texts translated',
  'translations.languages.missing': '{language}: {missing} of {total} texts missing',
  'translations.languages.outdated': '{language}: {outdated} of {total} texts to review (English changed)',
  'translations.languages.missingAndOutdated':
    '{language}: {missing} of {total} texts missing, {outdated} to review (English changed)',
  'translations.save.title': 'Save with translations to review?',
  'translations.save.message':
    '{count, plural, one {# translation was} other {# translations were}} written for English text that has changed since ({languages}). Students see {count, plural, one {it} other {them}} as written until reviewed.',
  'translations.save.languageCount': '{language} {count}',
  'translations.save.confirm': 'Save anyway',
  'translations.save.review': 'Review them',
} satisfies Record<`translations.${string}`, string>;
