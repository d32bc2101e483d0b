import { screen } from '@testing-library/react';
import { documentNavigation } from '../../../lib/document-navigation';
import { renderStudentApp, where } from '../../../testing/render-student';
import { useStudentServer } from './student-server';

useStudentServer();

const html = () => document.documentElement;

/** Opens a link the server does not know, the browser preferring `languages`; no page may be left for `/`. */
async function openDeadLink(languages: string[], heading: string) {
  const preferred = jest.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  const replace = jest.spyOn(documentNavigation, 'replace').mockImplementation(() => undefined);
  try {
    renderStudentApp('/assessment/tok-nobody');
    const title = await screen.findByRole('heading', { level: 1, name: heading });
    expect(replace).not.toHaveBeenCalled();
    expect(where.location?.pathname).toBe('/assessment/tok-nobody');
    expect(window.sessionStorage.getItem('readiness.handed-over-toast')).toBeNull();
    return title;
  } finally {
    preferred.mockRestore();
    replace.mockRestore();
  }
}

describe('A link that does not work, in the visitor’s language', () => {
  it('when an unknown link opens in an English browser, then a page of its own says what happened and whom to ask, and stays', async () => {
    await openDeadLink(['en-GB'], 'Invalid or expired invitation link');
    expect(
      screen.getByText(
        'This link does not open an assessment: it may be mistyped, out of date or withdrawn.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Ask the institution or administrator who sent you the invitation for a new link.'),
    ).toBeInTheDocument();
    expect(html()).toHaveAttribute('lang', 'en');
    expect(screen.queryByRole('button', { name: 'Start Assessment' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveValue('en');
  });

  it('when the browser prefers French, then the page is in French', async () => {
    await openDeadLink(['fr-CA', 'en'], 'Lien d’invitation non valide ou expiré');
    expect(
      screen.getByText(
        'Demandez un nouveau lien à l’établissement ou à l’administrateur qui vous a envoyé l’invitation.',
      ),
    ).toBeInTheDocument();
    expect(html()).toHaveAttribute('lang', 'fr');
    expect(html()).toHaveAttribute('dir', 'ltr');
  });

  it('when the browser prefers Arabic, then the page is in Arabic, right to left', async () => {
    await openDeadLink(['ar-EG'], 'رابط الدعوة غير صالح أو منتهي الصلاحية');
    expect(
      screen.getByText('اطلب رابطًا جديدًا من المؤسسة أو المسؤول الذي أرسل إليك الدعوة.'),
    ).toBeInTheDocument();
    expect(html()).toHaveAttribute('lang', 'ar');
    expect(html()).toHaveAttribute('dir', 'rtl');
    expect(screen.queryByText('Invalid or expired invitation link')).not.toBeInTheDocument();
  });
});
