import { FormModal, Input, Select } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { useAdminT, type AdminTranslate } from '../../../i18n/admin/admin-i18n';
import { ExtraTimeInput } from './extra-time';
import { inviteStudentSchema, useInviteStudentMutation, type InviteStudentInput } from '../api/students-api';

const empty: InviteStudentInput = { name: '', email: '', phoneNumber: '', extraTimePercent: 0, language: '' };

/** The languages a student can read Readiness in, named for the administrator and in their own words. */
export const studentLanguages = (t: AdminTranslate) => [
  { value: 'en', label: t('students.invite.languageEn') },
  { value: 'es', label: t('students.invite.languageEs') },
  { value: 'fr', label: t('students.invite.languageFr') },
  { value: 'pt', label: t('students.invite.languagePt') },
  { value: 'ar', label: t('students.invite.languageAr') },
];

export function InviteStudentModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useAdminT();
  const [invite, { isLoading }] = useInviteStudentMutation();
  const { field, modal } = useDialogForm({
    schema: inviteStudentSchema,
    openFor: open,
    values: () => empty,
    save: async (values) => {
      const student = await invite(values).unwrap();
      return t('students.invite.sent', { name: student?.name ?? values.name });
    },
    failure: t('students.invite.failed'),
    onClose,
  });

  return (
    <FormModal
      {...modal}
      title={t('students.invite.title')}
      submitLabel={t('students.invite.submit')}
      busy={isLoading}
    >
      <Input label={t('students.invite.name')} autoComplete="off" {...field('name')} />
      <Input label={t('students.invite.email')} type="email" autoComplete="off" {...field('email')} />
      {}
      <Input label={t('students.invite.phone')} type="tel" autoComplete="off" {...field('phoneNumber')} />
      {}
      <ExtraTimeInput {...field('extraTimePercent', { valueAsNumber: true })} />
      <Select
        label={t('students.invite.language')}
        placeholder={t('students.invite.languageBrowser')}
        options={studentLanguages(t)}
        {...field('language')}
      />
    </FormModal>
  );
}
