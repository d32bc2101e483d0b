import { RefreshCw } from 'lucide-react';
import { Badge, Button, Card, type BadgeTone } from '../../../components/ui';
import { formatDateTime } from '../../../lib/format';
import { notify, notifyFailure } from '../../../lib/toast';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';
import { useGetLmsGradeQuery, useSendLmsGradeAgainMutation, type LmsGrade } from '../../lti/api/lti-api';

const BADGE = {
  none: { tone: 'neutral', label: 'lti.grade.state.none' },
  pending: { tone: 'warning', label: 'lti.grade.state.pending' },
  sent: { tone: 'success', label: 'lti.grade.state.sent' },
  failed: { tone: 'danger', label: 'lti.grade.state.failed' },
} as const satisfies Record<LmsGrade['state'], { tone: BadgeTone; label: string }>;

/** While a score waits for its LMS, the card looks again every 10 seconds. */
const PENDING_POLL_MS = 10_000;

function lmsAnswer(grade: LmsGrade): string {
  const status = grade.lastStatus === null ? '' : `${grade.lastStatus} `;
  return `${status}${grade.lastAnswer ?? ''}`.trim();
}

/**
 * The result's score as sent to the gradebook of the LMS its student came from (LTI Assignment and Grade
 * Services): sent, being sent (with the next try), or given up with the LMS's answer and "Send again". Nothing for a
 * student who did not come from an LMS (the service answers 404).
 */
export function LmsGradeCard({ resultId }: { resultId: string }) {
  const t = useAdminT();
  const current = useGetLmsGradeQuery(resultId);
  const { data: grade } = useGetLmsGradeQuery(resultId, {
    pollingInterval: current.data?.state === 'pending' ? PENDING_POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const [sendAgain, sending] = useSendLmsGradeAgainMutation();
  if (!grade) return null;
  const lms = grade.platformName ?? t('lti.grade.unknownLms');

  const onSendAgain = async () => {
    try {
      await sendAgain(resultId).unwrap();
      notify.success(adminT('lti.grade.sendAgainQueued'));
    } catch (error) {
      notifyFailure(error, adminT('lti.grade.sendAgainFailed'));
    }
  };

  return (
    <Card title={t('lti.grade.title')}>
      <div className="stack">
        <p className="lms-grade">
          <Badge tone={BADGE[grade.state].tone}>{t(BADGE[grade.state].label)}</Badge>{' '}
          {grade.state === 'sent' &&
            t('lti.grade.sent', { lms, score: grade.scoreGiven, at: formatDateTime(grade.sentAt) })}
          {grade.state === 'pending' &&
            t('lti.grade.pending', {
              lms,
              score: grade.scoreGiven,
              tries: grade.tries,
              at: formatDateTime(grade.nextTryAt),
            })}
          {grade.state === 'failed' && t('lti.grade.failed', { lms, score: grade.scoreGiven })}
          {grade.state === 'none' && t('lti.grade.none', { lms })}
        </p>
        {grade.state !== 'sent' && grade.state !== 'none' && lmsAnswer(grade) && (
          <p className="muted">
            {t('lti.grade.answer')} <code>{lmsAnswer(grade)}</code>
          </p>
        )}
        {(grade.state === 'failed' || grade.state === 'sent') && (
          <div>
            <Button
              variant="secondary"
              icon={<RefreshCw size={18} aria-hidden="true" />}
              loading={sending.isLoading}
              onClick={() => void onSendAgain()}
            >
              {t('lti.grade.sendAgain')}
            </Button>
          </div>
        )}
      </div>
    </Card>
  );
}
