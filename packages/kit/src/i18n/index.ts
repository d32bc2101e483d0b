export {
  escapeHtml,
  isolated,
  isolateHtml,
  isolateText,
  translations,
  type Catalogue,
  type Catalogues,
  type Isolated,
  type MessageValues,
  type TranslationOptions,
  type Translator,
} from './translator';
export { catalogueProblems } from './check';
