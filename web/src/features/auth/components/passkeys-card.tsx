import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound, Plus } from 'lucide-react';
import { z } from 'zod';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  Input,
  Table,
  type Column,
} from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import { bindFields } from '../../../lib/forms';
import { failAtField } from '../../../lib/form-errors';
import { notify, notifyFailure } from '../../../lib/toast';
import {
  useAddPasskeyMutation,
  useBeginPasskeyRegistrationMutation,
  useRemovePasskeyMutation,
  type Passkey,
  type SecurityStatus,
} from '../api/multi-factor-api';
import { createPasskey, passkeysSupported, PasskeyUnavailable } from '../passkeys';
import { RecoveryCodes } from './second-factor';
import { useWithProof } from './step-up';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

const nameSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, adminT('auth.passkeys.nameRequired'))
    .max(60, adminT('auth.passkeys.nameTooLong')),
});
type NameInput = z.infer<typeof nameSchema>;

/**
 * The admin's passkeys: a second factor after the password, and a sign-in of their own without one. Added with a
 * name that says which device holds it, removed after a confirmation.
 */
export function PasskeysCard({ status }: { status: SecurityStatus }) {
  const t = useAdminT();
  const [adding, setAdding] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [remove, removal] = useRemovePasskeyMutation();
  const withProof = useWithProof();
  const supported = passkeysSupported();

  const confirmRemove = async () => {
    if (!removing) return;
    const { id, name } = removing;
    // The confirmation closes first, so the proof's dialog (when one is needed) is the only one open.
    setRemoving(null);
    try {
      if (
        (await withProof(() =>
          remove(id)
            .unwrap()
            .then(() => true),
        )) === undefined
      )
        return;
      notify.success(adminT('auth.passkeys.removed', { name }));
    } catch (err) {
      notifyFailure(err, adminT('auth.passkeys.removeFailed'));
    }
  };

  const columns: Column<Passkey>[] = [
    {
      key: 'name',
      header: t('auth.passkeys.name'),
      render: (p) => (
        <span>
          {p.name} {p.synced && <Badge tone="neutral">{t('auth.passkeys.synced')}</Badge>}
        </span>
      ),
    },
    {
      key: 'createdAt',
      header: t('auth.passkeys.added'),
      render: (p) => formatDateTime(p.createdAt),
      priority: 'low',
    },
    {
      key: 'lastUsedAt',
      header: t('auth.passkeys.lastUsed'),
      render: (p) => (p.lastUsedAt ? formatDateTime(p.lastUsedAt) : t('auth.passkeys.neverUsed')),
    },
    {
      key: 'actions',
      header: t('common.actions'),
      align: 'end',
      render: (p) => (
        <Button
          variant="secondary"
          size="sm"
          aria-label={t('auth.passkeys.removeOne', { name: p.name })}
          onClick={() => setRemoving(p)}
        >
          {t('auth.passkeys.remove')}
        </Button>
      ),
    },
  ];

  let body;
  if (recoveryCodes) {
    body = (
      <RecoveryCodes
        codes={recoveryCodes}
        doneLabel={t('auth.passkeys.done')}
        onDone={() => setRecoveryCodes(null)}
      />
    );
  } else {
    body = (
      <>
        <p>{t('auth.passkeys.intro')}</p>
        <Table
          caption={t('auth.passkeys.caption')}
          columns={columns}
          rows={status.passkeys}
          rowKey={(p) => p.id}
          empty={<EmptyState icon={<KeyRound size={28} />} title={t('auth.passkeys.empty')} />}
        />
        {!supported ? (
          <p className="security-page__hint">{t('auth.passkeys.cannotMake')}</p>
        ) : adding ? (
          <AddPasskeyForm
            onAdded={(codes) => {
              setAdding(false);
              if (codes) setRecoveryCodes(codes);
            }}
            onCancel={() => setAdding(false)}
          />
        ) : (
          <Button icon={<Plus size={16} aria-hidden="true" />} onClick={() => setAdding(true)}>
            {t('auth.passkeys.add')}
          </Button>
        )}
      </>
    );
  }

  return (
    <Card title={t('auth.passkeys.title')}>
      <div className="security-page__body">{body}</div>
      <ConfirmDialog
        open={removing !== null}
        title={t('auth.passkeys.removeTitle')}
        message={<p>{t('auth.passkeys.removeConfirm', { name: removing?.name })}</p>}
        confirmLabel={t('auth.passkeys.removeSubmit')}
        tone="danger"
        busy={removal.isLoading}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}

function AddPasskeyForm({
  onAdded,
  onCancel,
}: {
  onAdded: (recoveryCodes: string[] | undefined) => void;
  onCancel: () => void;
}) {
  const t = useAdminT();
  const [begin] = useBeginPasskeyRegistrationMutation();
  const [add] = useAddPasskeyMutation();
  const withProof = useWithProof();
  const form = useForm<NameInput>({ resolver: zodResolver(nameSchema), defaultValues: { name: '' } });
  const field = bindFields(form);

  const onSubmit = async ({ name }: NameInput) => {
    try {
      // The proof is asked for before the device makes the key, so nobody holds a passkey the server refuses.
      const options = await withProof(() => begin().unwrap());
      if (!options) return;
      const passkey = await createPasskey(options);
      const added = await withProof(() => add({ name, passkey }).unwrap());
      if (!added) return;
      notify.success(adminT('auth.passkeys.addedToast', { name: added.passkey.name }));
      onAdded(added.recoveryCodes);
    } catch (err) {
      if (err instanceof PasskeyUnavailable) notify.error(err.message);
      else failAtField(err, adminT('auth.passkeys.addFailed'), { setError: form.setError, fields: ['name'] });
    }
  };

  return (
    <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <Input
        label={t('auth.passkeys.nameLabel')}
        hint={t('auth.passkeys.nameHint')}
        autoComplete="off"
        maxLength={60}
        autoFocus
        {...field('name')}
      />
      <div className="security-page__actions">
        <Button variant="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button
          type="submit"
          loading={form.formState.isSubmitting}
          icon={<KeyRound size={16} aria-hidden="true" />}
        >
          {t('auth.passkeys.create')}
        </Button>
      </div>
    </form>
  );
}
