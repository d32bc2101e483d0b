import { FormModal, Input, PasswordInput, Select } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import type { Admin } from '../../auth/api/types';
import { useAdminT } from '../../../i18n/admin/admin-i18n';

import {
  createAdminSchema,
  editAdminSchema,
  ROLE_OPTIONS,
  useCreateAdminMutation,
  useUpdateAdminMutation,
  type CreateAdminInput,
} from '../api/admins-api';

/** The role select's options in the admin's language. */
function useRoleOptions() {
  const t = useAdminT();
  return ROLE_OPTIONS.map((o) => ({ value: o.value, label: t(o.labelId) }));
}

const emptyCreate = { name: '', email: '', password: '', role: '' } as unknown as CreateAdminInput;

export function CreateAdminModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useAdminT();
  const roleOptions = useRoleOptions();
  const [createAdmin, { isLoading }] = useCreateAdminMutation();
  const { field, modal } = useDialogForm({
    schema: createAdminSchema,
    openFor: open,
    values: () => emptyCreate,
    save: async (values) => {
      const admin = await createAdmin(values).unwrap();
      return t('admins.create.success', { name: admin?.name ?? values.name });
    },
    failure: t('admins.create.failure'),
    onClose,
  });

  return (
    <FormModal
      {...modal}
      title={t('admins.create.title')}
      submitLabel={t('admins.create.submit')}
      busy={isLoading}
    >
      <Input label={t('admins.form.name')} autoComplete="off" {...field('name')} />
      <Input label={t('common.field.email')} type="email" autoComplete="off" {...field('email')} />
      <PasswordInput
        label={t('common.field.password')}
        showLabel={t('common.showPassword')}
        hideLabel={t('common.hidePassword')}
        autoComplete="new-password"
        hint={t('admins.create.passwordHint')}
        {...field('password')}
      />
      <Select
        label={t('admins.form.role')}
        placeholder={t('admins.form.rolePlaceholder')}
        options={roleOptions}
        {...field('role')}
      />
    </FormModal>
  );
}

export function EditAdminModal({ admin, onClose }: { admin: Admin | null; onClose: () => void }) {
  const t = useAdminT();
  const roleOptions = useRoleOptions();
  const [updateAdmin, { isLoading }] = useUpdateAdminMutation();
  const { field, modal } = useDialogForm({
    schema: editAdminSchema,
    openFor: admin,
    values: ({ name, email, role }) => ({ name, email, role }),
    save: async (values, { _id }) => {
      await updateAdmin({ id: _id, ...values }).unwrap();
      return t('admins.edit.success');
    },
    failure: t('admins.edit.failure'),
    onClose,
  });

  return (
    <FormModal
      {...modal}
      title={t('admins.edit.title')}
      submitLabel={t('admins.edit.submit')}
      busy={isLoading}
    >
      <Input label={t('admins.form.name')} autoComplete="off" {...field('name')} />
      <Input label={t('common.field.email')} type="email" autoComplete="off" {...field('email')} />
      <Select label={t('admins.form.role')} options={roleOptions} {...field('role')} />
    </FormModal>
  );
}
