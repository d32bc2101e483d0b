import { screen } from '@testing-library/react';
import { refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { VISITOR_LANGUAGE_KEY } from '../../../i18n/use-visitor-language';

const html = () => document.documentElement;

beforeEach(() => {
  server.use(
    http.get('/api/certificates/{code}', () =>
      refusal(404, { message: 'No certificate has this code', code: 'not_found' }),
    ),
  );
});

describe('Verification page in the visitor’s language', () => {
  it('when the browser prefers Brazilian Portuguese, then the page is in Portuguese; a switch to Arabic is kept in this browser', async () => {
    const languages = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['pt-BR', 'en']);
    const { user } = renderStudentApp('/verify/RDY-NONE-0000');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Nenhum certificado tem este código' }),
    ).toBeInTheDocument();
    expect(html()).toHaveAttribute('lang', 'pt');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Idioma' }), 'ar');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'لا توجد شهادة بهذا الرمز' }),
    ).toBeInTheDocument();
    expect(html()).toHaveAttribute('dir', 'rtl');
    expect(window.localStorage.getItem(VISITOR_LANGUAGE_KEY)).toBe('ar');
    languages.mockRestore();
  });

  it('when the visitor chose French here before, then the page opens in French whatever the browser prefers', async () => {
    window.localStorage.setItem(VISITOR_LANGUAGE_KEY, 'fr');
    const languages = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['es-ES']);
    renderStudentApp('/verify');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Vérifier un certificat' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Code de vérification' })).toBeInTheDocument();
    languages.mockRestore();
  });

  it('when the browser prefers none of the five languages, then the page is in English', async () => {
    const languages = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE', 'it']);
    renderStudentApp('/verify/RDY-NONE-0000');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'No certificate has this code' }),
    ).toBeInTheDocument();
    expect(html()).toHaveAttribute('lang', 'en');
    expect(html()).toHaveAttribute('dir', 'ltr');
    languages.mockRestore();
  });
});
