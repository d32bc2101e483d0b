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

/** The signed-in admin's own sessions: where they are signed in, with a way to end any of them. */
export function AccountSessions() {
  const dispatch = useAppDispatch();
  const { data: sessions = [], isLoading, error } = useGetOwnSessionsQuery();
  const [endSession] = useEndOwnSessionMutation();
  const [endAll, { isLoading: endingAll }] = useEndAllOwnSessionsMutation();
  const [ending, setEnding] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (error) notifyFailure(error, 'Failed to load your sessions', { serverMessage: false });
  }, [error]);

  const signOut = async (session: OwnSession) => {
    setEnding(session._id);
    try {
      await endSession(session._id).unwrap();
      notify.success(`Signed out of ${deviceName(session)}`);
    } catch (err) {
      notifyFailure(err, 'Failed to sign out that session');
    } finally {
      setEnding(null);
    }
  };

  const signOutEverywhere = async () => {
    try {
      await endAll().unwrap();
    } catch (err) {
      notifyFailure(err, 'Failed to sign out everywhere');
      return;
    }
    // This session ended with the others: the app signs out as it would on any refused call.
    clearToken();
    dispatch(sessionExpired());
  };

  const columns: Column<OwnSession>[] = [
    {
      key: 'device',
      header: 'Device',
      render: (s) => (
        <span>
          {deviceName(s)} {s.current && <Badge tone="success">This device</Badge>}
        </span>
      ),
    },
    { key: 'address', header: 'Address', render: (s) => s.address || '—' },
    { key: 'signedInAt', header: 'Signed in', render: (s) => formatDateTime(s.signedInAt), priority: 'low' },
    { key: 'lastSeenAt', header: 'Last seen', render: (s) => formatDateTime(s.lastSeenAt) },
    {
      key: 'actions',
      header: 'Actions',
      align: 'end',
      render: (s) =>
        s.current ? null : (
          <Button
            variant="secondary"
            size="sm"
            loading={ending === s._id}
            aria-label={`Sign out ${deviceName(s)}, last seen ${formatDateTime(s.lastSeenAt)}`}
            onClick={() => void signOut(s)}
          >
            Sign out
          </Button>
        ),
    },
  ];

  return (
    <Card
      title="Where you are signed in"
      actions={
        <Button
          variant="danger"
          icon={<LogOut size={18} aria-hidden="true" />}
          onClick={() => setConfirming(true)}
          disabled={isLoading}
        >
          Sign out everywhere
        </Button>
      }
    >
      {isLoading ? (
        <div className="center-block">
          <Spinner label="Loading your sessions" />
        </div>
      ) : (
        <Table
          caption="Your active sessions"
          columns={columns}
          rows={sessions}
          rowKey={(s) => s._id}
          empty={<EmptyState icon={<MonitorSmartphone size={28} />} title="No active sessions" />}
        />
      )}
      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere"
        message={
          <p>Sign out of every session, this one included? You will need to sign in again on each device.</p>
        }
        confirmLabel="Sign out everywhere"
        tone="danger"
        busy={endingAll}
        onConfirm={() => void signOutEverywhere()}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}
