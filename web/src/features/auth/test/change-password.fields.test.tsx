import { screen } from '@testing-library/react';
import { regularAdmin } from '../../../testing/fixtures';
import { expectErrorAtField } from '../../../testing/fields';
import { renderApp } from '../../../testing/render';
import {
  COMMON_PASSWORD_MESSAGE,
  db,
  openSession,
  PASSWORD,
  PASSWORD_UNCHANGED_MESSAGE,
} from '../../../testing/server';

async function openChangePassword() {
  const app = renderApp('/admin/change-password', { token: openSession(regularAdmin._id) });
  expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
  return app;
}

async function fill(user: ReturnType<typeof renderApp>['user'], current: string, next: string) {
  await user.type(screen.getByLabelText('Current password'), current);
  await user.type(screen.getByLabelText('New password'), next);
  await user.type(screen.getByLabelText('Confirm new password'), next);
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
}

describe('Change password: what the server refuses shows at its field', () => {
  it('when the new password is one of the common ones, then the server message shows at New password, whose hint named the rule', async () => {
    const { user } = await openChangePassword();
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      'At least 6 characters, and not one of the common passwords.',
    );
    await fill(user, PASSWORD, 'password1');
    await expectErrorAtField(screen.getByLabelText('New password'), COMMON_PASSWORD_MESSAGE);
    expect(db.accounts.get(regularAdmin._id)!.password).toBe(PASSWORD);
  });

  it('when the current password is wrong, then "Current password is incorrect" shows at Current password', async () => {
    const { user } = await openChangePassword();
    await fill(user, 'not-my-password', 'a-fresh-secret');
    await expectErrorAtField(screen.getByLabelText('Current password'), 'Current password is incorrect');
    expect(db.accounts.get(regularAdmin._id)!.password).toBe(PASSWORD);
  });

  it('when the new password is the current one, then the server message shows at New password', async () => {
    const { user } = await openChangePassword();
    await fill(user, PASSWORD, PASSWORD);
    await expectErrorAtField(screen.getByLabelText('New password'), PASSWORD_UNCHANGED_MESSAGE);
  });
});
