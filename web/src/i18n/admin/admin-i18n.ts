import { createElement, type ReactElement, type ReactNode } from 'react';
import { setupI18n, type Messages } from '@lingui/core';
import { I18nProvider, Trans, useLingui } from '@lingui/react';
import en, { type AdminMessageId } from './en';

/** An admin message by id, with its values: the text in the admin app's language. */
export type AdminTranslate = (id: AdminMessageId, values?: Record<string, unknown>) => string;

/*
 * Written without JSX: the test typecheck (tsconfig.tests.json) reaches this module through the admin's schemas.
 */

/**
 * The admin app's Lingui instance. English only for now: the admin app is one language for
 * everyone, so one instance serves the screens (through the provider below) and the code outside them (toasts
 * raised by a request, errors turned into messages).
 */
export const adminI18n = setupI18n();
adminI18n.load('en', en as Messages);
adminI18n.activate('en');

/** An admin message by id, for code outside a component (a toast after a request, a thrown error's message). */
export const adminT: AdminTranslate = (id, values) => adminI18n._(id, values);

/** Gives the admin screens their catalogue. */
export function AdminLanguageProvider({ children }: { children: ReactNode }) {
  return createElement(I18nProvider, { i18n: adminI18n }, children);
}

/** An admin message by id, in a component: it follows the language if the admin app ever switches one. */
export function useAdminT(): AdminTranslate {
  return useLingui()._ as AdminTranslate;
}

/** An admin message whose words wrap elements: `<0>…</0>` in the catalogue is `components[0]` with those words. */
export function AdminT(props: {
  id: AdminMessageId;
  values?: Record<string, unknown>;
  components?: Record<string, ReactElement>;
}) {
  return createElement(Trans, props);
}

/** A paged list's words for `PageNav`: Previous, Next, "Page 2 of 5" and the list's own size message. */
export function pagerWords(
  t: AdminTranslate,
  pagination: { currentPage: number; totalPages: number; totalResults: number },
  sizeId: AdminMessageId,
) {
  return {
    previous: t('common.pager.previous'),
    next: t('common.pager.next'),
    page: t('common.pager.page', { current: pagination.currentPage, total: pagination.totalPages }),
    size: t(sizeId, { count: pagination.totalResults }),
  };
}
