import { FormModal, Input, PasswordInput, Select } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import type { Admin } from '../../auth/api/types';
import {
  createAdminSchema,
  editAdminSchema,
  ROLE_OPTIONS,
  useCreateAdminMutation,
  useUpdateAdminMutation,
  type CreateAdminInput,
} from '../api/admins-api';

const emptyCreate = { name: '', email: '', password: '', role: '' } as unknown as CreateAdminInput;

export function CreateAdminModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [createAdmin, { isLoading }] = useCreateAdminMutation();
  const { field, modal } = useDialogForm({
    schema: createAdminSchema,
    openFor: open,
    values: () => emptyCreate,
    save: async (values) => {
      const admin = await createAdmin(values).unwrap();
      return `Admin ${admin?.name ?? values.name} created successfully`;
    },
    failure: 'Failed to create admin',
    onClose,
  });

  return (
    <FormModal {...modal} title="Create Admin" submitLabel="Create Admin" busy={isLoading}>
      <Input label="Name" autoComplete="off" {...field('name')} />
      <Input label="Email" type="email" autoComplete="off" {...field('email')} />
      <PasswordInput
        label="Password"
        autoComplete="new-password"
        hint="The new admin signs in with it. At least 6 characters, and not one of the common passwords."
        {...field('password')}
      />
      <Select label="Role" placeholder="Select a role" options={ROLE_OPTIONS} {...field('role')} />
    </FormModal>
  );
}

export function EditAdminModal({ admin, onClose }: { admin: Admin | null; onClose: () => void }) {
  const [updateAdmin, { isLoading }] = useUpdateAdminMutation();
  const { field, modal } = useDialogForm({
    schema: editAdminSchema,
    openFor: admin,
    values: ({ name, email, role }) => ({ name, email, role }),
    save: async (values, { _id }) => {
      await updateAdmin({ id: _id, ...values }).unwrap();
      return 'Admin updated successfully';
    },
    failure: 'Failed to update admin',
    onClose,
  });

  return (
    <FormModal {...modal} title="Edit Admin" submitLabel="Save Changes" busy={isLoading}>
      <Input label="Name" autoComplete="off" {...field('name')} />
      <Input label="Email" type="email" autoComplete="off" {...field('email')} />
      <Select label="Role" options={ROLE_OPTIONS} {...field('role')} />
    </FormModal>
  );
}
