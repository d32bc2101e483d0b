import { screen, within } from '@testing-library/react';
import { renderStudentApp } from '../../../testing/render-student';
import { attemptInProgress, db, TOKEN, useStudentServer } from './student-server';

useStudentServer();

describe("an attempt's own questions and order (question banks and shuffling)", () => {
  it('when the version draws questions, then the welcome page counts what each student answers', async () => {
    db.assessment = {
      ...db.assessment,
      sections: db.assessment.sections.map((s) => (s.id === 1 ? { ...s, draw: 1 } : s)),
    };
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await screen.findByText('4 questions across 3 sections')).toBeInTheDocument();
    const sections = within(screen.getByRole('region', { name: 'Online Learning Readiness' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(sections[0]).toBe('Section 1: Technology1 question');
  });

  it('when the attempt was given some questions in its own order, then the test shows those, in that order, with its options order', async () => {
    db.attempt = attemptInProgress({
      paper: { questionIds: ['q2', 'q4', 'q3', 'q5'], options: { q2: ['o2', 'o1'], q3: ['o4', 'o3'] } },
    });
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    // Section 1 holds no required question the attempt was given: the test resumes at section 2.
    expect(await screen.findByRole('heading', { level: 2, name: 'Study Habits' })).toBeInTheDocument();
    expect(
      [...document.querySelectorAll('[data-question-id]')].map((e) => e.getAttribute('data-question-id')),
    ).toEqual(['q4', 'q3']);
    await user.click(screen.getByRole('button', { name: 'Section 1: Technology' }));
    await screen.findByRole('heading', { level: 2, name: 'Technology' });
    // Section 1 gave only the connection question (q1 was not drawn), its options in the attempt's order.
    expect(screen.queryByText('Do you have a computer at home?')).not.toBeInTheDocument();
    const connection = screen
      .getByText('How fast is your internet connection?')
      .closest('[data-question-id]')!;
    expect(
      within(connection as HTMLElement)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['o2', 'o1']);
  });
});
