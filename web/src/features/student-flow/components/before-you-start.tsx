import { useState } from 'react';
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { Badge } from '../../../components/ui';
import { useI18n, useT } from '../../../i18n/react';
import {
  canKeepAnswersOffline,
  clockLine,
  connectionLine,
  offlineLine,
  type CheckLine,
} from '../device-check';
import { useConnectionCheck } from '../hooks/use-connection-check';

function StatusBadge({ status }: { status: CheckLine['status'] }) {
  const t = useT();
  return status === 'ok' ? (
    <Badge tone="success">
      <CheckCircle2 size={12} aria-hidden="true" />
      {t('check.ok')}
    </Badge>
  ) : (
    <Badge tone="warning">
      <AlertTriangle size={12} aria-hidden="true" />
      {t('check.warning')}
    </Badge>
  );
}

interface BeforeYouStartProps {
  token: string;
  /** How far the server's clock is ahead of this device's, from the assessment load. */
  offset: number;
}

/**
 * The check before the clock starts: advice only, so Start never waits for it. Its results are
 * announced once, when the connection has been timed (in the language of that moment); the list itself is not a
 * live region.
 */
export function BeforeYouStart({ token, offset }: BeforeYouStartProps) {
  const t = useT();
  const i18n = useI18n();
  const connection = useConnectionCheck(token);
  const [storage] = useState(canKeepAnswersOffline);
  const clock = clockLine(i18n, offset);
  const offline = offlineLine(i18n, storage);
  const measured = connection.status === 'done' ? connectionLine(i18n, connection.ms) : null;

  const [announced, setAnnounced] = useState('');
  if (measured && !announced) {
    setAnnounced(
      t('check.finished', { connection: measured.text, clock: clock.text, offline: offline.text }),
    );
  }

  return (
    <section className="card card__body" aria-labelledby="before-you-start-title">
      <h2 id="before-you-start-title" className="welcome__heading">
        {t('check.title')}
      </h2>
      <ul className="welcome__sections">
        <li>
          {measured ? (
            <>
              <span>{measured.text}</span>
              <span>
                <StatusBadge status={measured.status} />
              </span>
            </>
          ) : (
            <>
              <span>{t('check.connectionChecking')}</span>
              <span className="spinner spinner--sm" aria-hidden="true" />
            </>
          )}
        </li>
        {[clock, offline].map((line) => (
          <li key={line.text}>
            <span>{line.text}</span>
            <span>
              <StatusBadge status={line.status} />
            </span>
          </li>
        ))}
        <li>
          <span>{t('check.closedPage')}</span>
          <span>
            <Badge tone="info">
              <Info size={12} aria-hidden="true" />
              {t('check.info')}
            </Badge>
          </span>
        </li>
      </ul>
      <p role="status" className="visually-hidden">
        {announced}
      </p>
    </section>
  );
}
