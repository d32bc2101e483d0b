import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { DialogActions, Input, Modal } from '../../../components/ui';
import { failAtField } from '../../../lib/form-errors';
import { notify } from '../../../lib/toast';
import { ExtraTimeInput } from './extra-time';
import { inviteStudentSchema, useInviteStudentMutation, type InviteStudentInput } from '../api/students-api';

const empty: InviteStudentInput = { name: '', email: '', phoneNumber: '', extraTimePercent: 0 };

export function InviteStudentModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [invite, { isLoading }] = useInviteStudentMutation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<InviteStudentInput>({ resolver: zodResolver(inviteStudentSchema), defaultValues: empty });

  useEffect(() => {
    if (open) reset(empty);
  }, [open, reset]);

  const onSubmit = async (values: InviteStudentInput) => {
    try {
      const student = await invite(values).unwrap();
      notify.success(`Invitation sent to ${student?.name ?? values.name}`);
      onClose();
    } catch (err) {
      failAtField(err, 'Failed to send invitation', {
        setError,
        fields: ['name', 'email', 'phoneNumber', 'extraTimePercent'],
      });
    }
  };

  return (
    <Modal
      open={open}
      title="Invite Student"
      onClose={onClose}
      dismissible={!isLoading}
      footer={
        <DialogActions
          formId="invite-student-form"
          submitLabel="Send Invitation"
          busy={isLoading}
          onCancel={onClose}
        />
      }
    >
      <form id="invite-student-form" className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
        <Input label="Name" autoComplete="off" error={errors.name?.message} {...register('name')} />
        <Input
          label="Email"
          type="email"
          autoComplete="off"
          error={errors.email?.message}
          {...register('email')}
        />
        <Input
          label="Phone number (optional)"
          type="tel"
          autoComplete="off"
          error={errors.phoneNumber?.message}
          {...register('phoneNumber')}
        />
        <ExtraTimeInput
          error={errors.extraTimePercent?.message}
          {...register('extraTimePercent', { valueAsNumber: true })}
        />
      </form>
    </Modal>
  );
}
