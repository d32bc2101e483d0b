/*
 * Noto Sans Arabic, bundled, for the pages in Arabic only: this module is loaded with the Arabic catalogue,
 * so the English pages never download it. Its Arabic subset only: Latin text keeps the page's own font. The faces
 * swap in when they arrive (`font-display: swap`); the stylesheet names the family for `:lang(ar)`.
 */
import '@fontsource/noto-sans-arabic/arabic-400.css';
import '@fontsource/noto-sans-arabic/arabic-600.css';
import '@fontsource/noto-sans-arabic/arabic-700.css';
