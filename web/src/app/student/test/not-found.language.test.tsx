import { screen } from '@testing-library/react';
import { VISITOR_LANGUAGE_KEY } from '../../../i18n/use-visitor-language';
import { renderStudentApp } from '../../../testing/render-student';

const html = () => document.documentElement;

describe('The student pages’ 404 in the visitor’s language', () => {
  it('when the browser prefers Brazilian Portuguese, then the 404 is in Portuguese; a switch to Arabic turns it and is kept in this browser', async () => {
    const languages = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['pt-BR', 'en']);
    const { user } = renderStudentApp('/assessment/abc/nowhere');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Página não encontrada' }),
    ).toBeInTheDocument();
    expect(html()).toHaveAttribute('lang', 'pt');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Idioma' }), 'ar');

    expect(await screen.findByRole('heading', { level: 1, name: 'الصفحة غير موجودة' })).toBeInTheDocument();
    expect(html()).toHaveAttribute('dir', 'rtl');
    expect(window.localStorage.getItem(VISITOR_LANGUAGE_KEY)).toBe('ar');
    languages.mockRestore();
  });

  it('when the visitor chose French on the verification page before, then the 404 opens in French whatever the browser prefers', async () => {
    window.localStorage.setItem(VISITOR_LANGUAGE_KEY, 'fr');
    const languages = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['es-ES']);
    renderStudentApp('/assessment/abc/nowhere');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page introuvable' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Aller à l’accueil' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retour' })).toBeInTheDocument();
    languages.mockRestore();
  });

  it('when the browser prefers none of the five languages, then the 404 is in English, with the switch', async () => {
    const languages = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'it']);
    renderStudentApp('/assessment/abc/nowhere');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    expect(html()).toHaveAttribute('lang', 'en');
    expect(html()).toHaveAttribute('dir', 'ltr');
    languages.mockRestore();
  });
});
