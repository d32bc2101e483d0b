import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Modal } from './modal';
import { UiWordsProvider } from './words';

const WORDS = { close: 'Close', cancel: 'Cancel', loading: 'Loading' };

/** A page with controls behind a dialog whose Save button is disabled while it saves, as every form dialog's is. */
function Page() {
  const [saving, setSaving] = useState(false);
  const [open, setOpen] = useState(true);
  return (
    <>
      <a href="#main">Skip to content</a>
      <button type="button">Behind the dialog</button>
      <Modal
        open={open}
        title="Invite Student"
        onClose={() => setOpen(false)}
        dismissible={!saving}
        footer={
          <>
            <button type="button" onClick={() => setOpen(false)} disabled={saving}>
              Cancel
            </button>
            <button type="button" onClick={() => setSaving(true)} disabled={saving}>
              Save
            </button>
            <button type="button" onClick={() => setSaving(false)}>
              Server answered
            </button>
          </>
        }
      >
        <label>
          Name <input />
        </label>
      </Modal>
    </>
  );
}

const insideDialog = () =>
  screen.getByRole('dialog', { name: 'Invite Student' }).contains(document.activeElement);

it('when focus was lost to the page (a control disabled while saving) and Tab or Shift+Tab is pressed, then focus comes back into the dialog and never leaves it', async () => {
  const user = userEvent.setup();
  render(
    <UiWordsProvider words={WORDS}>
      <Page />
    </UiWordsProvider>,
  );
  expect(screen.getByLabelText('Name')).toHaveFocus();
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await user.click(screen.getByRole('button', { name: 'Server answered' }));
  // A browser drops the focus of a control that becomes disabled (Save, while saving): it is on the page now.
  act(() => (document.activeElement as HTMLElement).blur());
  expect(document.activeElement).toBe(document.body);

  await user.tab();
  expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
  for (let i = 0; i < 9; i++) {
    await user.tab();
    expect(insideDialog()).toBe(true);
  }
  act(() => (document.activeElement as HTMLElement).blur());
  await user.tab({ shift: true });
  expect(screen.getByRole('button', { name: 'Server answered' })).toHaveFocus();
  for (let i = 0; i < 9; i++) {
    await user.tab({ shift: true });
    expect(insideDialog()).toBe(true);
  }
});

it('when something behind the dialog is focused, then the focus is taken back into the dialog', async () => {
  render(
    <UiWordsProvider words={WORDS}>
      <Page />
    </UiWordsProvider>,
  );
  act(() => screen.getByRole('button', { name: 'Behind the dialog' }).focus());
  expect(insideDialog()).toBe(true);
  expect(screen.getByRole('button', { name: 'Behind the dialog', hidden: true })).not.toHaveFocus();
});
