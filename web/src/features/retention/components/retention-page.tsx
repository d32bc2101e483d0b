import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Card, ConfirmDialog, NumberInput, Spinner } from '../../../components/ui';
import { bindFields } from '../../../lib/forms';
import { formatDate, formatDateTime } from '../../../lib/format';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import {
  needsConfirmation,
  retentionSchema,
  useGetRetentionQuery,
  useLazyRetentionDryRunQuery,
  useSaveRetentionMutation,
  type RetentionDryRun,
  type RetentionInput,
} from '../api/retention-api';

/**
 * Admin Management → Data retention (super admins): whether students inactive for more than N months are erased, a
 * dry run of what N months would erase now, and switching it on (or N shorter) only with the count confirmed: the
 * service refuses the save when more students are due than the super admin saw.
 */
export function RetentionPage() {
  const t = useAdminT();
  const { data: settings, error: loadError } = useGetRetentionQuery();
  const [runDry, { isFetching: counting }] = useLazyRetentionDryRunQuery();
  const [save, { isLoading: saving }] = useSaveRetentionMutation();
  const [dryRun, setDryRun] = useState<RetentionDryRun | null>(null);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<RetentionInput>({ resolver: zodResolver(retentionSchema) });
  const field = bindFields(form);
  const { reset, handleSubmit } = form;

  useEffect(() => {
    if (loadError) notifyFailure(loadError, adminT('retention.loadFailed'), { serverMessage: false });
  }, [loadError]);
  useEffect(() => {
    if (settings) reset({ months: settings.months });
  }, [settings, reset]);

  if (!settings) {
    return (
      <Card title={t('retention.title')}>{!loadError && <Spinner label={t('retention.loading')} />}</Card>
    );
  }

  const count = async (months: number) => {
    try {
      const run = await runDry(months, false).unwrap();
      setDryRun(run);
      return run;
    } catch (err) {
      notifyFailure(err, adminT('retention.dryRun.failed'));
      return undefined;
    }
  };

  const store = async (change: { enabled: boolean; months: number; expectedCount?: number }) => {
    try {
      await save(change).unwrap();
      notify.success(
        change.enabled
          ? adminT('retention.saved.on', { months: change.months })
          : adminT('retention.saved.off'),
      );
    } catch (err) {
      // A 409 says how many are due now: the count shown is no longer worth confirming.
      setDryRun(null);
      notifyFailure(err, adminT('retention.saveFailed'));
    }
  };

  const onDryRun = handleSubmit(async ({ months }) => {
    await count(months);
  });
  const onSave = handleSubmit(async ({ months }) => {
    if (!needsConfirmation(settings, months)) return store({ enabled: true, months });
    if (await count(months)) setConfirming(true);
  });
  const onConfirm = async () => {
    if (!dryRun) return;
    setConfirming(false);
    await store({ enabled: true, months: dryRun.months, expectedCount: dryRun.count });
  };

  return (
    <div className="stack">
      <Card title={t('retention.title')}>
        <div className="stack">
          <p>{t('retention.intro')}</p>
          <p className="muted">{t('retention.lastActivity')}</p>
          <p className="retention__now">
            <strong>{t('retention.status.label')}: </strong>
            <Badge tone={settings.enabled ? 'warning' : 'neutral'}>
              {settings.enabled ? t('retention.status.on') : t('retention.status.off')}
            </Badge>{' '}
            {settings.enabled
              ? t('retention.status.onText', { months: settings.months })
              : t('retention.status.offText')}{' '}
            {settings.updatedAt && (
              <span className="muted">
                {t('retention.status.changed', { at: formatDateTime(settings.updatedAt) })}
              </span>
            )}
          </p>
          <form
            className="retention-form"
            onSubmit={(e) => void onSave(e)}
            aria-label={t('retention.title')}
            noValidate
          >
            <NumberInput
              label={t('retention.months')}
              hint={t('retention.monthsHint')}
              min={1}
              max={120}
              step={1}
              {...field('months', { valueAsNumber: true, onChange: () => setDryRun(null) })}
            />
            <div className="toolbar">
              <Button type="button" variant="secondary" loading={counting} onClick={() => void onDryRun()}>
                {t('retention.dryRun')}
              </Button>
              <Button type="submit" loading={saving}>
                {settings.enabled ? t('retention.save') : t('retention.switchOn')}
              </Button>
              {settings.enabled && (
                <Button
                  type="button"
                  variant="danger"
                  disabled={saving}
                  onClick={() => void store({ enabled: false, months: settings.months })}
                >
                  {t('retention.switchOff')}
                </Button>
              )}
            </div>
          </form>
          <p className="retention__dry-run" role="status" aria-live="polite">
            {dryRun &&
              (dryRun.count === 0
                ? t('retention.dryRun.none', { months: dryRun.months })
                : t('retention.dryRun.some', {
                    months: dryRun.months,
                    count: dryRun.count,
                    oldest: formatDate(dryRun.oldestActivityAt),
                  }))}
          </p>
        </div>
      </Card>
      <ConfirmDialog
        open={confirming && dryRun !== null}
        title={settings.enabled ? t('retention.confirm.shortenTitle') : t('retention.confirm.title')}
        tone="danger"
        message={
          dryRun && dryRun.count > 0
            ? t('retention.confirm.some', { count: dryRun.count, months: dryRun.months })
            : t('retention.confirm.none', { months: dryRun?.months ?? 0 })
        }
        confirmLabel={
          dryRun && dryRun.count > 0
            ? t('retention.confirm.submit', { count: dryRun.count })
            : settings.enabled
              ? t('retention.save')
              : t('retention.confirm.submitNone')
        }
        busy={saving}
        onConfirm={() => void onConfirm()}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
