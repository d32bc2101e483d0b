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

const nameSchema = z.object({
  name: z.string().trim().min(1, 'Name is required').max(60, 'Name must be at most 60 characters'),
});
type NameInput = z.infer<typeof nameSchema>;

/**
 * The admin's passkeys: a second factor after the password, and a sign-in of their own without one. Added with a
 * name that says which device holds it, removed after a confirmation.
 */
export function PasskeysCard({ status }: { status: SecurityStatus }) {
  const [adding, setAdding] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [remove, removal] = useRemovePasskeyMutation();
  const supported = passkeysSupported();

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove(removing.id).unwrap();
      notify.success(`Passkey '${removing.name}' removed`);
    } catch (err) {
      notifyFailure(err, 'Failed to remove the passkey');
    } finally {
      setRemoving(null);
    }
  };

  const columns: Column<Passkey>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (p) => (
        <span>
          {p.name} {p.synced && <Badge tone="neutral">Synced</Badge>}
        </span>
      ),
    },
    { key: 'createdAt', header: 'Added', render: (p) => formatDateTime(p.createdAt), priority: 'low' },
    {
      key: 'lastUsedAt',
      header: 'Last used',
      render: (p) => (p.lastUsedAt ? formatDateTime(p.lastUsedAt) : 'Never'),
    },
    {
      key: 'actions',
      header: 'Actions',
      align: 'end',
      render: (p) => (
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Remove passkey ${p.name}`}
          onClick={() => setRemoving(p)}
        >
          Remove
        </Button>
      ),
    },
  ];

  let body;
  if (recoveryCodes) {
    body = <RecoveryCodes codes={recoveryCodes} doneLabel="Done" onDone={() => setRecoveryCodes(null)} />;
  } else {
    body = (
      <>
        <p>
          Sign in with your fingerprint, face, screen lock or security key instead of a password, or use a
          passkey as the second step after your password.
        </p>
        <Table
          caption="Your passkeys"
          columns={columns}
          rows={status.passkeys}
          rowKey={(p) => p.id}
          empty={<EmptyState icon={<KeyRound size={28} />} title="No passkeys yet" />}
        />
        {!supported ? (
          <p className="security-page__hint">This browser cannot make passkeys.</p>
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
            Add a passkey
          </Button>
        )}
      </>
    );
  }

  return (
    <Card title="Passkeys">
      <div className="security-page__body">{body}</div>
      <ConfirmDialog
        open={removing !== null}
        title="Remove passkey"
        message={
          <p>
            Remove the passkey &lsquo;{removing?.name}&rsquo;? It will no longer sign you in. Remove it from
            the device too.
          </p>
        }
        confirmLabel="Remove passkey"
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
  const [begin] = useBeginPasskeyRegistrationMutation();
  const [add] = useAddPasskeyMutation();
  const form = useForm<NameInput>({ resolver: zodResolver(nameSchema), defaultValues: { name: '' } });
  const field = bindFields(form);

  const onSubmit = async ({ name }: NameInput) => {
    try {
      const passkey = await createPasskey(await begin().unwrap());
      const added = await add({ name, passkey }).unwrap();
      notify.success(`Passkey '${added.passkey.name}' added`);
      onAdded(added.recoveryCodes);
    } catch (err) {
      if (err instanceof PasskeyUnavailable) notify.error(err.message);
      else failAtField(err, 'Failed to add the passkey', { setError: form.setError, fields: ['name'] });
    }
  };

  return (
    <form className="form" onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <Input
        label="Passkey name"
        hint="Which device or key holds it, for example 'Work laptop'."
        autoComplete="off"
        maxLength={60}
        autoFocus
        {...field('name')}
      />
      <div className="security-page__actions">
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          type="submit"
          loading={form.formState.isSubmitting}
          icon={<KeyRound size={16} aria-hidden="true" />}
        >
          Create passkey
        </Button>
      </div>
    </form>
  );
}
