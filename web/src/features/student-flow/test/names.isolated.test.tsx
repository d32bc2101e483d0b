import { screen } from '@testing-library/react';
import { renderStudentApp } from '../../../testing/render-student';
import { attemptInProgress, db, TOKEN, useStudentServer } from './student-server';

useStudentServer();

// A name written right to left: outside an isolate it would carry the words and figures after it along.
const NAME = 'ليلى حسن';

/** The element that sets the name apart from its line: a <bdi>, or any element with dir="auto". */
const isolator = (text: string) => screen.getByText(text).closest('bdi, [dir="auto"]');

describe('the student’s name on the student pages', () => {
  it('when the welcome page shows the name, then it stands in its own isolate', async () => {
    db.student = { ...db.student, name: NAME };
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'Start Assessment' })).toBeInTheDocument();
    expect(isolator(NAME)).toHaveTextContent(new RegExp(`^${NAME}$`));
  });

  it('when the test’s header shows the name, then it stands in its own isolate', async () => {
    db.student = { ...db.student, name: NAME };
    db.attempt = attemptInProgress();
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await screen.findByRole('progressbar', { name: 'Progress' })).toBeInTheDocument();
    expect(isolator(NAME)).toHaveTextContent(new RegExp(`^${NAME}$`));
  });
});
