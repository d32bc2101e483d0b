import { useState } from 'react';
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { Badge } from '../../../components/ui';
import {
  canKeepAnswersOffline,
  clockLine,
  CLOSED_PAGE_TEXT,
  connectionLine,
  offlineLine,
  type CheckLine,
} from '../device-check';
import { useConnectionCheck } from '../hooks/use-connection-check';

function StatusBadge({ status }: { status: CheckLine['status'] }) {
  return status === 'ok' ? (
    <Badge tone="success">
      <CheckCircle2 size={12} aria-hidden="true" />
      OK
    </Badge>
  ) : (
    <Badge tone="warning">
      <AlertTriangle size={12} aria-hidden="true" />
      Warning
    </Badge>
  );
}

interface BeforeYouStartProps {
  token: string;
  /** How far the server's clock is ahead of this device's, from the assessment load. */
  offset: number;
}

/**
 * The check before the clock starts (issue 26): advice only, so Start never waits for it. Its results are
 * announced once, when the connection has been timed; the list itself is not a live region.
 */
export function BeforeYouStart({ token, offset }: BeforeYouStartProps) {
  const connection = useConnectionCheck(token);
  const [storage] = useState(canKeepAnswersOffline);
  const lines = [clockLine(offset), offlineLine(storage)];
  const measured = connection.status === 'done' ? connectionLine(connection.ms) : null;

  const [announced, setAnnounced] = useState('');
  if (measured && !announced) {
    setAnnounced(`Check finished. ${[measured, ...lines].map((line) => line.text).join('. ')}.`);
  }

  return (
    <section className="card card__body" aria-labelledby="before-you-start-title">
      <h2 id="before-you-start-title" className="welcome__heading">
        Before you start
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
              <span>Connection: checking…</span>
              <span className="spinner spinner--sm" aria-hidden="true" />
            </>
          )}
        </li>
        {lines.map((line) => (
          <li key={line.text}>
            <span>{line.text}</span>
            <span>
              <StatusBadge status={line.status} />
            </span>
          </li>
        ))}
        <li>
          <span>{CLOSED_PAGE_TEXT}</span>
          <span>
            <Badge tone="info">
              <Info size={12} aria-hidden="true" />
              Info
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
