import { useEffect, useState } from 'react';
import { LogOut, MonitorSmartphone } from 'lucide-react';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  Spinner,
  Table,
  type Column,
} from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import { useAppDispatch } from '../../../lib/hooks';
import { sessionExpired } from '../../../lib/session-events';
import { clearToken } from '../../../lib/session-token';
import { notify, notifyFailure } from '../../../lib/toast';
import {
  deviceName,
  useEndAllOwnSessionsMutation,
  useEndOwnSessionMutation,
  useGetOwnSessionsQuery,
  type OwnSession,
} from '../api/sessions-api';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/** The signed-in admin's own sessions: where they are signed in, with a way to end any of them. */
export function AccountSessions() {
  const t = useAdminT();
  const dispatch = useAppDispatch();
  const { data: sessions = [], isLoading, error } = useGetOwnSessionsQuery();
  const [endSession] = useEndOwnSessionMutation();
  const [endAll, { isLoading: endingAll }] = useEndAllOwnSessionsMutation();
  const [ending, setEnding] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (error) notifyFailure(error, adminT('auth.sessions.loadFailed'), { serverMessage: false });
  }, [error]);

  const signOut = async (session: OwnSession) => {
    setEnding(session._id);
    try {
      await endSession(session._id).unwrap();
      notify.success(adminT('auth.sessions.signedOut', { device: deviceName(session) }));
    } catch (err) {
      notifyFailure(err, adminT('auth.sessions.signOutFailed'));
    } finally {
      setEnding(null);
    }
  };

  const signOutEverywhere = async () => {
    try {
      await endAll().unwrap();
    } catch (err) {
      notifyFailure(err, adminT('auth.sessions.signOutAllFailed'));
      return;
    }
    // This session ended with the others: the app signs out as it would on any refused call.
    clearToken();
    dispatch(sessionExpired('signedOutEverywhere'));
  };

  const columns: Column<OwnSession>[] = [
    {
      key: 'device',
      header: t('auth.sessions.device.header'),
      render: (s) => (
        <span>
          {deviceName(s)} {s.current && <Badge tone="success">{t('auth.sessions.thisDevice')}</Badge>}
        </span>
      ),
    },
    { key: 'address', header: t('auth.sessions.address'), render: (s) => s.address || '—' },
    {
      key: 'signedInAt',
      header: t('auth.sessions.signedIn'),
      render: (s) => formatDateTime(s.signedInAt),
      priority: 'low',
    },
    { key: 'lastSeenAt', header: t('auth.sessions.lastSeen'), render: (s) => formatDateTime(s.lastSeenAt) },
    {
      key: 'actions',
      header: t('common.actions'),
      align: 'end',
      render: (s) =>
        s.current ? null : (
          <Button
            variant="secondary"
            size="sm"
            loading={ending === s._id}
            aria-label={t('auth.sessions.signOutOne', {
              device: deviceName(s),
              lastSeen: formatDateTime(s.lastSeenAt),
            })}
            onClick={() => void signOut(s)}
          >
            {t('auth.signOut')}
          </Button>
        ),
    },
  ];

  return (
    <Card
      title={t('auth.sessions.title')}
      actions={
        <Button
          variant="danger"
          icon={<LogOut size={18} aria-hidden="true" />}
          onClick={() => setConfirming(true)}
          disabled={isLoading}
        >
          {t('auth.sessions.signOutAll')}
        </Button>
      }
    >
      {isLoading ? (
        <div className="center-block">
          <Spinner label={t('auth.sessions.loading')} />
        </div>
      ) : (
        <Table
          caption={t('auth.sessions.caption')}
          columns={columns}
          rows={sessions}
          rowKey={(s) => s._id}
          empty={<EmptyState icon={<MonitorSmartphone size={28} />} title={t('auth.sessions.empty')} />}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title={t('auth.sessions.signOutAll')}
        message={<p>{t('auth.sessions.signOutAllConfirm')}</p>}
        confirmLabel={t('auth.sessions.signOutAll')}
        tone="danger"
        busy={endingAll}
        onConfirm={() => void signOutEverywhere()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
