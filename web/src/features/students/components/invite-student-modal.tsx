import { FormModal, Input } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { ExtraTimeInput } from './extra-time';
import { inviteStudentSchema, useInviteStudentMutation, type InviteStudentInput } from '../api/students-api';

const empty: InviteStudentInput = { name: '', email: '', phoneNumber: '', extraTimePercent: 0 };

export function InviteStudentModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [invite, { isLoading }] = useInviteStudentMutation();
  const { field, modal } = useDialogForm({
    schema: inviteStudentSchema,
    openFor: open,
    values: () => empty,
    save: async (values) => {
      const student = await invite(values).unwrap();
      return `Invitation sent to ${student?.name ?? values.name}`;
    },
    failure: 'Failed to send invitation',
    onClose,
  });

  return (
    <FormModal {...modal} title="Invite Student" submitLabel="Send Invitation" busy={isLoading}>
      <Input label="Name" autoComplete="off" {...field('name')} />
      <Input label="Email" type="email" autoComplete="off" {...field('email')} />
      <Input label="Phone number (optional)" type="tel" autoComplete="off" {...field('phoneNumber')} />
      <ExtraTimeInput {...field('extraTimePercent', { valueAsNumber: true })} />
    </FormModal>
  );
}
