import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui';
import { notify, notifyFailure } from '../../../lib/toast';
import { AdminT, adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  fieldsOf,
  useDeleteLtiPlatformMutation,
  useUpdateLtiPlatformMutation,
  type LtiPlatform,
} from '../api/lti-api';

const WORDS = {
  disable: {
    title: 'lti.disable.title',
    confirm: 'lti.disable.confirm',
    consequence: 'lti.disable.consequence',
    submit: 'lti.disable.submit',
  },
  delete: {
    title: 'lti.delete.title',
    confirm: 'lti.delete.confirm',
    consequence: 'lti.delete.consequence',
    submit: 'lti.delete.submit',
  },
} as const;

/** Asks before a connection is disabled or deleted, naming it and what it does. */
function PlatformConfirm({
  kind,
  platform,
  busy,
  onConfirm,
  onCancel,
}: {
  kind: keyof typeof WORDS;
  platform: LtiPlatform | null;
  busy: boolean;
  onConfirm: (platform: LtiPlatform) => void;
  onCancel: () => void;
}) {
  const t = useAdminT();
  const words = WORDS[kind];
  return (
    <ConfirmDialog
      open={platform !== null}
      tone="danger"
      title={t(words.title)}
      message={
        <>
          <p>
            <AdminT id={words.confirm} values={{ name: platform?.name }} components={{ 0: <strong /> }} />
          </p>
          <p className="muted">{t(words.consequence)}</p>
        </>
      }
      confirmLabel={t(words.submit)}
      busy={busy}
      onConfirm={() => platform && onConfirm(platform)}
      onCancel={onCancel}
    />
  );
}

/**
 * Disabling and enabling a connection (the service takes it as the connection saved with `disabled` changed):
 * disabling is asked first, as Admin Management asks before disabling an admin; enabling is not.
 */
export function usePlatformToggle() {
  const [updatePlatform] = useUpdateLtiPlatformMutation();
  const [togglingId, setTogglingId] = useState<string | null>(null);
  const [target, setTarget] = useState<LtiPlatform | null>(null);

  const toggle = async (platform: LtiPlatform) => {
    const disabled = !platform.disabled;
    setTogglingId(platform.id);
    try {
      await updatePlatform({ id: platform.id, ...fieldsOf(platform), disabled }).unwrap();
      notify.success(disabled ? adminT('lti.status.disabledDone') : adminT('lti.status.enabledDone'));
    } catch (err) {
      notifyFailure(err, adminT('lti.status.failure'));
    } finally {
      setTogglingId(null);
      setTarget(null);
    }
  };

  const dialog = (
    <PlatformConfirm
      kind="disable"
      platform={target}
      busy={togglingId !== null}
      onConfirm={(p) => void toggle(p)}
      onCancel={() => setTarget(null)}
    />
  );
  const ask = (platform: LtiPlatform) => (platform.disabled ? void toggle(platform) : setTarget(platform));
  return { togglingId, ask, dialog };
}

/** Deleting a connection, after a confirmation: `ask(platform)` opens it, `dialog` is placed once on the page. */
export function usePlatformDelete() {
  const [target, setTarget] = useState<LtiPlatform | null>(null);
  const [deletePlatform, { isLoading }] = useDeleteLtiPlatformMutation();

  const remove = async (platform: LtiPlatform) => {
    try {
      await deletePlatform(platform.id).unwrap();
      notify.success(adminT('lti.delete.success'));
      setTarget(null);
    } catch (err) {
      notifyFailure(err, adminT('lti.delete.failure'));
    }
  };

  const dialog = (
    <PlatformConfirm
      kind="delete"
      platform={target}
      busy={isLoading}
      onConfirm={(p) => void remove(p)}
      onCancel={() => setTarget(null)}
    />
  );
  return { ask: setTarget, dialog };
}
