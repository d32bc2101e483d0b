/*
 * The admin app's words for an assessment's content in other languages (the editor's content-language and
 * translations cards, and the files per language): one file of the admin catalogue (see ./index.ts); its ids start
 * with its name.
 */
export default {} satisfies Record<`translations.${string}`, string>;
