import { FormModal, Input, NumberInput } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  reminderDays,
  reminderSettingsSchema,
  useGetReminderSettingsQuery,
  useSaveReminderSettingsMutation,
} from '../api/students-api';

/** When the reminder job reminds invited students who have not started: days, hours before expiry, the most. */
export function ReminderSettingsModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useAdminT();
  const { data: settings } = useGetReminderSettingsQuery(undefined, { skip: !open });
  const [save, { isLoading }] = useSaveReminderSettingsMutation();
  const { field, modal } = useDialogForm({
    schema: reminderSettingsSchema,
    openFor: open ? (settings ?? null) : null,
    values: (s) => ({
      afterDays: s.afterDays.join(', '),
      beforeExpiryHours: s.beforeExpiryHours,
      max: s.max,
    }),
    save: async ({ afterDays, beforeExpiryHours, max }) => {
      await save({ afterDays: reminderDays(afterDays), beforeExpiryHours, max }).unwrap();
      return t('students.reminderSettings.saved');
    },
    failure: t('students.reminderSettings.failed'),
    onClose,
  });

  return (
    <FormModal
      {...modal}
      title={t('students.reminderSettings.title')}
      submitLabel={t('students.reminderSettings.save')}
      busy={isLoading}
      size="sm"
    >
      <p className="muted">{t('students.reminderSettings.text')}</p>
      <Input
        label={t('students.reminderSettings.days')}
        hint={t('students.reminderSettings.daysHint')}
        inputMode="numeric"
        {...field('afterDays')}
      />
      <NumberInput
        label={t('students.reminderSettings.hours')}
        hint={t('students.reminderSettings.hoursHint')}
        min={0}
        max={720}
        step={1}
        {...field('beforeExpiryHours', { valueAsNumber: true })}
      />
      <NumberInput
        label={t('students.reminderSettings.max')}
        hint={t('students.reminderSettings.maxHint')}
        min={0}
        max={20}
        step={1}
        {...field('max', { valueAsNumber: true })}
      />
    </FormModal>
  );
}
