import { FormModal, Input, Select } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { ExtraTimeInput } from './extra-time';
import { inviteStudentSchema, useInviteStudentMutation, type InviteStudentInput } from '../api/students-api';

const empty: InviteStudentInput = { name: '', email: '', phoneNumber: '', extraTimePercent: 0, language: '' };

/** The languages a student can read Readiness in, named for the administrator and in their own words. */
export const STUDENT_LANGUAGES = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish (Español)' },
  { value: 'fr', label: 'French (Français)' },
  { value: 'pt', label: 'Portuguese (Português)' },
  { value: 'ar', label: 'Arabic (العربية), right to left' },
];

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
      <Select
        label="Language of the mails, the test and the certificate"
        placeholder="The student's browser language"
        options={STUDENT_LANGUAGES}
        {...field('language')}
      />
    </FormModal>
  );
}
