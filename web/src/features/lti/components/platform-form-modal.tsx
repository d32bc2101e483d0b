import { FormModal, Input, TextArea } from '../../../components/ui';
import { useDialogForm } from '../../../lib/forms';
import { useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  platformBody,
  platformFormSchema,
  useAddLtiPlatformMutation,
  useUpdateLtiPlatformMutation,
  type LtiPlatform,
  type PlatformFormInput,
} from '../api/lti-api';

/** The LMS's three URLs, each a field of its own. */
const URL_FIELDS = [
  ['authUrl', 'lti.form.authUrl'],
  ['jwksUrl', 'lti.form.jwksUrl'],
  ['tokenUrl', 'lti.form.tokenUrl'],
] as const;

const EMPTY: PlatformFormInput = {
  name: '',
  issuer: '',
  clientId: '',
  deploymentIds: '',
  authUrl: '',
  jwksUrl: '',
  tokenUrl: '',
};

/** What the form opens for: a new connection, or the one it edits. */
export type PlatformFormTarget = { adding: true } | LtiPlatform;

const editing = (target: PlatformFormTarget): target is LtiPlatform => 'id' in target;

/** Adds an LMS connection, or edits one (its status is kept as it is). */
export function PlatformFormModal({
  target,
  onClose,
}: {
  target: PlatformFormTarget | null;
  onClose: () => void;
}) {
  const t = useAdminT();
  const [addPlatform, { isLoading: adding }] = useAddLtiPlatformMutation();
  const [updatePlatform, { isLoading: updating }] = useUpdateLtiPlatformMutation();
  const isEdit = target !== null && editing(target);
  const { field, modal } = useDialogForm({
    schema: platformFormSchema,
    openFor: target,
    values: (open) =>
      editing(open)
        ? {
            name: open.name,
            issuer: open.issuer,
            clientId: open.clientId,
            deploymentIds: open.deploymentIds.join('\n'),
            authUrl: open.authUrl,
            jwksUrl: open.jwksUrl,
            tokenUrl: open.tokenUrl,
          }
        : EMPTY,
    save: async (values, open) => {
      if (editing(open)) {
        await updatePlatform({ id: open.id, ...platformBody(values, open.disabled) }).unwrap();
        return t('lti.edit.success');
      }
      await addPlatform(platformBody(values, false)).unwrap();
      return t('lti.add.success');
    },
    failure: isEdit ? t('lti.edit.failure') : t('lti.add.failure'),
    onClose,
  });

  return (
    <FormModal
      {...modal}
      title={isEdit ? t('lti.form.editTitle') : t('lti.form.addTitle')}
      submitLabel={isEdit ? t('lti.form.editSubmit') : t('lti.form.addSubmit')}
      busy={adding || updating}
    >
      <Input label={t('lti.form.name')} hint={t('lti.form.nameHint')} autoComplete="off" {...field('name')} />
      <Input
        label={t('lti.form.issuer')}
        hint={t('lti.form.issuerHint')}
        autoComplete="off"
        spellCheck={false}
        {...field('issuer')}
      />
      <Input label={t('lti.form.clientId')} autoComplete="off" spellCheck={false} {...field('clientId')} />
      <TextArea
        label={t('lti.form.deploymentIds')}
        hint={t('lti.form.deploymentIdsHint')}
        rows={2}
        spellCheck={false}
        {...field('deploymentIds')}
      />
      {URL_FIELDS.map(([name, label]) => (
        <Input
          key={name}
          label={t(label)}
          type="url"
          autoComplete="off"
          spellCheck={false}
          {...field(name)}
        />
      ))}
    </FormModal>
  );
}
