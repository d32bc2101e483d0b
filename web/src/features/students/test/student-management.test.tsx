import { File as NodeFile } from 'node:buffer';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from '../../../testing/openapi-http';
import { superAdmin } from '../../../testing/fixtures';
import { expectErrorAtField } from '../../../testing/fields';
import { answer, outage, refusal } from '../../../testing/answer';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import { DUPLICATE_MESSAGE, store, student, useStudentServer } from './student-server';

useStudentServer();

async function openStudents() {
  const app = renderApp('/admin/students', { token: openSession(superAdmin._id) });
  await screen.findByRole('table', { name: 'Students' });
  return app;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
const lastQuery = () => store.listQueries.at(-1) ?? new URLSearchParams();

async function openInvite(user: Awaited<ReturnType<typeof openStudents>>['user']) {
  await user.click(screen.getByRole('button', { name: 'Invite Student' }));
  return screen.getByRole('dialog', { name: 'Invite Student' });
}

describe('Student Management', () => {
  it('when the list loads, then each student shows status, invited date and a failed delivery with its reason', async () => {
    await openStudents();
    expect(screen.getByRole('heading', { level: 1, name: 'Student Management' })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Student', 'Status', 'Invited Date', 'Actions']);
    expect(within(row('Marie Curie')).getByText('Invited')).toBeInTheDocument();
    expect(within(row('Niels Bohr')).getByText('In Progress')).toBeInTheDocument();
    expect(within(row('Lise Meitner')).getByText('Completed')).toBeInTheDocument();
    expect(within(row('Marie Curie')).getByText('Mar 1, 2025')).toBeInTheDocument();
    const failed = await within(row('Paul Dirac')).findByText('Invite failed');
    expect(failed.closest('[title]')).toHaveAttribute('title', '550 mailbox unavailable');
    expect(within(row('Marie Curie')).queryByText('Invite failed')).not.toBeInTheDocument();
  });

  it('when the latest mail was a reminder, then its badge says the reminder, not the invite, queued or failed', async () => {
    const at = '2025-03-02T09:00:00.000Z';
    store.deliveries = [
      { studentId: 'st-1', kind: 'reminder', status: 'queued', reason: null, at },
      { studentId: 'st-4', kind: 'reminder', status: 'failed', reason: '452 mailbox full', at },
    ];
    await openStudents();
    expect(await within(row('Marie Curie')).findByText('Reminder queued')).toBeInTheDocument();
    const failed = await within(row('Paul Dirac')).findByText('Reminder failed');
    expect(failed.closest('[title]')).toHaveAttribute('title', '452 mailbox full');
    expect(screen.queryByText('Invite failed')).not.toBeInTheDocument();
  });

  it("when a student has a language, then their row names it in its own words, marked as that language; none: the student's browser, else English", async () => {
    store.students = store.students.map((s) =>
      s._id === 'st-1' ? { ...s, language: 'ar' } : s._id === 'st-2' ? { ...s, language: 'es' } : s,
    );
    await openStudents();
    expect(within(row('Marie Curie')).getByText('العربية')).toHaveAttribute('lang', 'ar');
    expect(within(row('Marie Curie')).getByText('العربية').parentElement).toHaveTextContent(
      'Language: العربية',
    );
    expect(within(row('Niels Bohr')).getByText('Español')).toHaveAttribute('lang', 'es');
    expect(
      within(row('Lise Meitner')).getByText("Language: the student's browser, else English"),
    ).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Student', 'Status', 'Invited Date', 'Actions']);
  });

  it('when searching and filtering, then the server is asked with search, status, page and limit', async () => {
    const { user } = await openStudents();
    expect(lastQuery().get('page')).toBe('1');
    expect(lastQuery().get('limit')).toBe('20');
    expect(lastQuery().has('status')).toBe(false);
    const filter = screen.getByRole('combobox', { name: 'Status' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All Status', 'Invited', 'In Progress', 'Completed']);
    await user.selectOptions(filter, 'In Progress');
    await waitFor(() => expect(lastQuery().get('status')).toBe('started'));
    await waitFor(() => expect(screen.queryByText('Marie Curie')).not.toBeInTheDocument());
    expect(row('Niels Bohr')).toBeInTheDocument();

    await user.selectOptions(filter, 'All Status');
    await user.type(screen.getByRole('searchbox', { name: 'Search students' }), 'MARIE');
    await waitFor(() => expect(lastQuery().get('search')).toBe('MARIE'));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(row('Marie Curie')).toBeInTheDocument();
  });

  it('when there are more students than a page holds, then Next asks the server for the next page', async () => {
    store.students = Array.from({ length: 25 }, (_, i) =>
      student({
        _id: `st-p${i}`,
        name: `Pupil ${String(i).padStart(2, '0')}`,
        email: `pupil${i}@example.edu`,
        inviteToken: `tok-p${i}`,
      }),
    );
    const { user } = await openStudents();
    expect(screen.getByRole('navigation', { name: 'Student pages' })).toHaveTextContent(
      'Page 1 of 2 (25 students)',
    );
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(lastQuery().get('page')).toBe('2'));
    expect(await screen.findByText('Pupil 24')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('when nothing matches or there are no students, then "No students found" shows', async () => {
    const { user } = await openStudents();
    await user.type(screen.getByRole('searchbox', { name: 'Search students' }), 'nobody');
    expect(await screen.findByText('No students found')).toBeInTheDocument();
  });

  it('when the list fails to load, then "Failed to load students" shows', async () => {
    server.use(
      http.get('/api/admin/students', ({ response }) => response.untyped(outage(503, { message: 'down' }))),
    );
    renderApp('/admin/students', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('Failed to load students')).toBeInTheDocument();
  });

  it('when the invite form is sent empty or wrong, then the §5 messages show and nothing is sent', async () => {
    const { user } = await openStudents();
    const dialog = await openInvite(user);
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Email is required')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'K');
    await user.type(within(dialog).getByLabelText('Email'), 'k@nowhere');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(dialog).findByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Invalid email address')).toBeInTheDocument();
    expect(store.invites).toHaveLength(0);
  });

  it('when a valid student is invited, then the payload is name, email and phone, the toast names them and the row appears', async () => {
    const { user } = await openStudents();
    const dialog = await openInvite(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Emmy Noether');
    await user.type(within(dialog).getByLabelText('Email'), 'emmy@example.edu');
    await user.type(within(dialog).getByLabelText('Phone number (optional)'), '+49 551 39');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Invitation sent to Emmy Noether')).toBeInTheDocument();
    expect(store.invites).toEqual([
      { name: 'Emmy Noether', email: 'emmy@example.edu', phoneNumber: '+49 551 39' },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(row('Emmy Noether')).toBeInTheDocument());
    expect(await within(row('Emmy Noether')).findByText('Invite queued')).toBeInTheDocument();
  });

  it('when the phone number is left empty, then it is not sent', async () => {
    const { user } = await openStudents();
    const dialog = await openInvite(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Emmy Noether');
    await user.type(within(dialog).getByLabelText('Email'), 'emmy@example.edu');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    await screen.findByText('Invitation sent to Emmy Noether');
    expect(store.invites).toEqual([{ name: 'Emmy Noether', email: 'emmy@example.edu' }]);
  });

  it('when extra time is given on invite, then it is sent and shown; out of range it is refused with its message', async () => {
    const { user } = await openStudents();
    const dialog = await openInvite(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Emmy Noether');
    await user.type(within(dialog).getByLabelText('Email'), 'emmy@example.edu');
    const extra = within(dialog).getByLabelText('Extra time (%)');
    await user.clear(extra);
    await user.type(extra, '301');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(
      await within(dialog).findByText('Extra time must be a whole percentage from 0 to 300'),
    ).toBeInTheDocument();
    expect(store.invites).toHaveLength(0);
    await user.clear(extra);
    await user.type(extra, '50');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    await screen.findByText('Invitation sent to Emmy Noether');
    expect(store.invites).toEqual([
      { name: 'Emmy Noether', email: 'emmy@example.edu', extraTimePercent: 50 },
    ]);
    expect(await within(row('Emmy Noether')).findByText('+50% time')).toBeInTheDocument();
  });

  it("when a language is chosen on invite, then it is sent; left on the browser's, nothing is sent", async () => {
    const { user } = await openStudents();
    const dialog = await openInvite(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Layla Hassan');
    await user.type(within(dialog).getByLabelText('Email'), 'layla@example.edu');
    const language = within(dialog).getByLabelText('Language of the mails, the test and the certificate');
    expect(language).toHaveValue('');
    await user.selectOptions(language, 'Arabic (العربية), right to left');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    await screen.findByText('Invitation sent to Layla Hassan');
    expect(store.invites).toEqual([{ name: 'Layla Hassan', email: 'layla@example.edu', language: 'ar' }]);
  });

  it('when extra time is set on a student later, then the PATCH carries it and the row shows it', async () => {
    const { user } = await openStudents();
    await user.click(
      within(row('Niels Bohr')).getByRole('button', { name: 'Set extra time for Niels Bohr' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Extra Time' });
    const extra = within(dialog).getByLabelText('Extra time (%)');
    expect(extra).toHaveValue(0);
    await user.clear(extra);
    await user.type(extra, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Extra time for Niels Bohr set to 25%')).toBeInTheDocument();
    expect(store.students.find((s) => s._id === 'st-2')?.extraTimePercent).toBe(25);
    expect(await within(row('Niels Bohr')).findByText('+25% time')).toBeInTheDocument();
  });

  it('when the server refuses the extra time, then its message shows at Extra time (%) and the dialog stays open', async () => {
    const refused = 'Extra time must be a whole percentage from 0 to 300';
    server.use(
      http.patch('/api/admin/students/{id}', () =>
        refusal(400, { message: refused, code: 'validation_failed', field: 'extraTimePercent' }),
      ),
    );
    const { user } = await openStudents();
    await user.click(
      within(row('Niels Bohr')).getByRole('button', { name: 'Set extra time for Niels Bohr' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Extra Time' });
    await user.type(within(dialog).getByLabelText('Extra time (%)'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await expectErrorAtField(within(dialog).getByLabelText('Extra time (%)'), refused);
    expect(screen.getByRole('dialog', { name: 'Extra Time' })).toBeInTheDocument();
  });

  it('when the e-mail is already invited, then the 409 message shows at the Email field and the dialog stays open', async () => {
    const { user } = await openStudents();
    const dialog = await openInvite(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Marie Again');
    await user.type(within(dialog).getByLabelText('Email'), 'MARIE@example.edu');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    await expectErrorAtField(within(dialog).getByLabelText('Email'), DUPLICATE_MESSAGE);
    expect(screen.getByRole('dialog', { name: 'Invite Student' })).toBeInTheDocument();
  });

  it('when inviting fails without a message, then "Failed to send invitation" shows', async () => {
    server.use(http.post('/api/admin/students/invite', ({ response }) => response.untyped(outage(500))));
    const { user } = await openStudents();
    const dialog = await openInvite(user);
    await user.type(within(dialog).getByLabelText('Name'), 'Emmy Noether');
    await user.type(within(dialog).getByLabelText('Email'), 'emmy@example.edu');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Failed to send invitation')).toBeInTheDocument();
  });

  it('when the assessment URL is copied, then the link is on the clipboard and a check mark shows for 2 seconds', async () => {
    const { user } = await openStudents();
    const write = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(
      within(row('Marie Curie')).getByRole('button', { name: 'Copy assessment URL for Marie Curie' }),
    );
    expect(await screen.findByText('Assessment URL copied to clipboard')).toBeInTheDocument();
    expect(write).toHaveBeenCalledWith(`${window.location.origin}/assessment/tok-marie`);
    expect(
      within(row('Marie Curie')).getByRole('button', { name: 'Link copied for Marie Curie' }),
    ).toBeInTheDocument();
    await waitFor(
      () =>
        expect(
          within(row('Marie Curie')).getByRole('button', { name: 'Copy assessment URL for Marie Curie' }),
        ).toBeInTheDocument(),
      { timeout: 3000 },
    );
  });

  it('when the clipboard refuses, then "Failed to copy URL" shows', async () => {
    const { user } = await openStudents();
    jest.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    await user.click(
      within(row('Marie Curie')).getByRole('button', { name: 'Copy assessment URL for Marie Curie' }),
    );
    expect(await screen.findByText('Failed to copy URL')).toBeInTheDocument();
  });

  it('when students were reminded, then the row says how often and when; a reminder is sent after a confirmation, and "Send a reminder now" asks with the count of the filter\'s students', async () => {
    store.students = store.students.map((s) =>
      s._id === 'st-4' ? { ...s, reminderCount: 2, lastRemindedAt: '2025-03-04T09:00:00.000Z' } : s,
    );
    const { user } = await openStudents();
    expect(within(row('Paul Dirac')).getByText('Reminded 2 times, last on Mar 4, 2025')).toBeInTheDocument();
    expect(within(row('Marie Curie')).queryByText(/Reminded/)).not.toBeInTheDocument();
    // Only a student who has not started can be reminded.
    expect(within(row('Niels Bohr')).queryByRole('button', { name: /reminder/ })).not.toBeInTheDocument();

    await user.click(
      within(row('Marie Curie')).getByRole('button', { name: 'Send a reminder now to Marie Curie' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Send a Reminder' });
    expect(store.reminded).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Send Reminder' }));
    expect(await screen.findByText('Reminder sent to Marie Curie')).toBeInTheDocument();
    expect(await within(row('Marie Curie')).findByText(/^Reminded once, last on/)).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Invited');
    await waitFor(() => expect(lastQuery().get('status')).toBe('invited'));
    await user.click(screen.getByRole('button', { name: 'Send a reminder now' }));
    const all = await screen.findByRole('dialog', { name: 'Send a Reminder' });
    expect(all).toHaveTextContent('Send a reminder now to 1 student of this list who has not started?');
    expect(store.remindFilters).toEqual([{ dryRun: true, body: { status: 'invited' } }]);
    await user.click(within(all).getByRole('button', { name: 'Send 1 reminder' }));
    expect(await screen.findByText('1 reminder sent')).toBeInTheDocument();
    expect(store.remindFilters.at(-1)).toEqual({ dryRun: false, body: { status: 'invited' } });
    expect(store.reminded).toEqual(['st-1', 'st-4']);
  });

  it('when resending, then a confirmation comes first and only confirming sends it', async () => {
    const { user } = await openStudents();
    await user.click(
      within(row('Paul Dirac')).getByRole('button', { name: 'Resend invitation to Paul Dirac' }),
    );
    let dialog = screen.getByRole('dialog', { name: 'Resend Invitation' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(store.resent).toEqual([]);
    await user.click(
      within(row('Paul Dirac')).getByRole('button', { name: 'Resend invitation to Paul Dirac' }),
    );
    dialog = screen.getByRole('dialog', { name: 'Resend Invitation' });
    await user.click(within(dialog).getByRole('button', { name: 'Resend Invitation' }));
    expect(await screen.findByText('Invitation sent to Paul Dirac')).toBeInTheDocument();
    expect(store.resent).toEqual(['st-4']);
  });

  it('when resending fails, then "Failed to resend assessment invitation" shows', async () => {
    server.use(
      http.post('/api/admin/students/{id}/resend-assessment', ({ response }) =>
        response.untyped(outage(500)),
      ),
    );
    const { user } = await openStudents();
    await user.click(
      within(row('Paul Dirac')).getByRole('button', { name: 'Resend invitation to Paul Dirac' }),
    );
    await user.click(
      within(screen.getByRole('dialog', { name: 'Resend Invitation' })).getByRole('button', {
        name: 'Resend Invitation',
      }),
    );
    expect(await screen.findByText('Failed to resend assessment invitation')).toBeInTheDocument();
  });

  it('when deleting, then the confirmation warns it cannot be undone and the row goes', async () => {
    const { user } = await openStudents();
    await user.click(within(row('Marie Curie')).getByRole('button', { name: 'Delete Marie Curie' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Student' });
    expect(within(dialog).getByText(/cannot be undone/)).toBeInTheDocument();
    expect(store.students).toHaveLength(4);
    await user.click(within(dialog).getByRole('button', { name: 'Delete Student' }));
    expect(await screen.findByText('Student deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Marie Curie')).not.toBeInTheDocument());
    expect(store.students).toHaveLength(3);
  });

  it('when a student is deleted, then Results Management asks for its list again, since their results went with them', async () => {
    let asked = 0;
    server.use(
      http.get('/api/admin/results', () => {
        asked += 1;
        return answer('/api/admin/results', 'get', {
          results: [],
          pagination: { currentPage: 1, totalPages: 1, totalResults: 0, hasNext: false, hasPrev: false },
          stats: { totalResults: 0, passed: 0, failed: 0, averagePercentage: 0, passRate: 0 },
        });
      }),
    );
    const { user } = renderApp('/admin/results', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('No results found')).toBeInTheDocument();
    expect(asked).toBe(1);
    await user.click(screen.getByRole('link', { name: 'Students' }));
    await screen.findByRole('table', { name: 'Students' });
    await user.click(within(row('Marie Curie')).getByRole('button', { name: 'Delete Marie Curie' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Student' })).getByRole('button', {
        name: 'Delete Student',
      }),
    );
    expect(await screen.findByText('Student deleted successfully')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Results' }));
    await waitFor(() => expect(asked).toBe(2));
  });

  it('when deleting fails, then "Failed to delete student" shows', async () => {
    server.use(http.delete('/api/admin/students/{id}', ({ response }) => response.untyped(outage(500))));
    const { user } = await openStudents();
    await user.click(within(row('Marie Curie')).getByRole('button', { name: 'Delete Marie Curie' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Student' })).getByRole('button', {
        name: 'Delete Student',
      }),
    );
    expect(await screen.findByText('Failed to delete student')).toBeInTheDocument();
  });

  it('when a CSV is imported, then the dry run lists each bad line and confirming invites the valid rows', async () => {
    const { user } = await openStudents();
    await user.click(screen.getByRole('button', { name: 'Import CSV' }));
    const dialog = screen.getByRole('dialog', { name: 'Import Students' });
    expect(within(dialog).getByRole('link', { name: /Download the template CSV/ })).toHaveAttribute(
      'download',
      'students-template.csv',
    );
    const csv = [
      'name,email,phoneNumber',
      'Emmy Noether,emmy@example.edu,',
      'Bad Mail,not-an-email,',
      'Emmy Twice,EMMY@example.edu,',
      'Marie Again,marie@example.edu,',
      'Max Born,max@example.edu,+49 1',
    ].join('\n');
    await user.upload(
      within(dialog).getByLabelText('CSV file'),
      // jsdom's File is opaque to the fetch that sends the form; Node's own File carries its bytes.
      new NodeFile([csv], 'students.csv', { type: 'text/csv' }) as unknown as File,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Check File' }));
    const report = await within(dialog).findByRole('region', { name: 'Check result' });
    expect(within(report).getByText('Line 3: Invalid email address')).toBeInTheDocument();
    expect(within(report).getByText('Line 4: Duplicate email in the file')).toBeInTheDocument();
    expect(within(report).getByText('Line 5: Already invited')).toBeInTheDocument();
    expect(store.imports.map((i) => i.dryRun)).toEqual([true]);
    expect(store.students).toHaveLength(4);

    await user.click(within(dialog).getByRole('button', { name: 'Invite 2 students' }));
    expect(await screen.findByText('2 students invited')).toBeInTheDocument();
    expect(store.imports.map((i) => i.dryRun)).toEqual([true, false]);
    await waitFor(() => expect(row('Max Born')).toBeInTheDocument());
    expect(row('Emmy Noether')).toBeInTheDocument();
  });
});
