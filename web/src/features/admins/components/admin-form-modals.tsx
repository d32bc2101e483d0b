import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { DialogActions, Input, Modal, PasswordInput, Select } from '../../../components/ui';
import { failAtField } from '../../../lib/form-errors';
import { notify } from '../../../lib/toast';
import type { Admin } from '../../auth/api/types';
import {
  createAdminSchema,
  editAdminSchema,
  ROLE_OPTIONS,
  useCreateAdminMutation,
  useUpdateAdminMutation,
  type CreateAdminInput,
  type EditAdminInput,
} from '../api/admins-api';

const emptyCreate = { name: '', email: '', password: '', role: '' } as unknown as CreateAdminInput;

export function CreateAdminModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [createAdmin, { isLoading }] = useCreateAdminMutation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<CreateAdminInput>({ resolver: zodResolver(createAdminSchema), defaultValues: emptyCreate });

  useEffect(() => {
    if (open) reset(emptyCreate);
  }, [open, reset]);

  const onSubmit = async (values: CreateAdminInput) => {
    try {
      const admin = await createAdmin(values).unwrap();
      notify.success(`Admin ${admin?.name ?? values.name} created successfully`);
      onClose();
    } catch (err) {
      failAtField(err, 'Failed to create admin', {
        setError,
        fields: ['name', 'email', 'password', 'role'],
      });
    }
  };

  return (
    <Modal
      open={open}
      title="Create Admin"
      onClose={onClose}
      dismissible={!isLoading}
      footer={
        <DialogActions
          formId="create-admin-form"
          submitLabel="Create Admin"
          busy={isLoading}
          onCancel={onClose}
        />
      }
    >
      <form id="create-admin-form" className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Input label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        <Input
          label="Email"
          type="email"
          autoComplete="off"
          error={errors.email?.message}
          {...register('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="new-password"
          hint="The new admin signs in with it. At least 6 characters, and not one of the common passwords."
          error={errors.password?.message}
          {...register('password')}
        />
        <Select
          label="Role"
          placeholder="Select a role"
          options={ROLE_OPTIONS}
          error={errors.role?.message}
          {...register('role')}
        />
      </form>
    </Modal>
  );
}

export function EditAdminModal({ admin, onClose }: { admin: Admin | null; onClose: () => void }) {
  const [updateAdmin, { isLoading }] = useUpdateAdminMutation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<EditAdminInput>({ resolver: zodResolver(editAdminSchema) });

  useEffect(() => {
    if (admin) reset({ name: admin.name, email: admin.email, role: admin.role });
  }, [admin, reset]);

  const onSubmit = async (values: EditAdminInput) => {
    if (!admin) return;
    try {
      await updateAdmin({ id: admin._id, ...values }).unwrap();
      notify.success('Admin updated successfully');
      onClose();
    } catch (err) {
      failAtField(err, 'Failed to update admin', {
        setError,
        fields: ['name', 'email', 'role'],
      });
    }
  };

  return (
    <Modal
      open={admin !== null}
      title="Edit Admin"
      onClose={onClose}
      dismissible={!isLoading}
      footer={
        <DialogActions
          formId="edit-admin-form"
          submitLabel="Save Changes"
          busy={isLoading}
          onCancel={onClose}
        />
      }
    >
      <form id="edit-admin-form" className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Input label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        <Input
          label="Email"
          type="email"
          autoComplete="off"
          error={errors.email?.message}
          {...register('email')}
        />
        <Select label="Role" options={ROLE_OPTIONS} error={errors.role?.message} {...register('role')} />
      </form>
    </Modal>
  );
}
