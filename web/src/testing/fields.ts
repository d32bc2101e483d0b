import { screen } from '@testing-library/react';

/**
 * The server's refusal shows at its field, as a browser user meets it: the field is invalid, describes itself
 * with the message, has the focus, and the message is on the page once (no toast repeating it).
 */
export async function expectErrorAtField(field: HTMLElement, message: string): Promise<void> {
  await screen.findByText(message);
  expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(field).toHaveAccessibleDescription(message);
  expect(field).toHaveFocus();
  expect(screen.getAllByText(message)).toHaveLength(1);
}
