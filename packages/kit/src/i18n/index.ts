export {
  escapeHtml,
  translations,
  type Catalogue,
  type Catalogues,
  type MessageValues,
  type TranslationOptions,
  type Translator,
} from './translator';
export { catalogueProblems } from './check';
