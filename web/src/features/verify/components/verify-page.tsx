import { useState, type FormEvent, type ReactNode } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { AlertTriangle, BadgeCheck, SearchX } from 'lucide-react';
import { Button, Input, Logo, Spinner } from '../../../components/ui';
import { formatDate } from '../../../lib/format';
import { useCertificateVerification } from '../api/certificate-verification';

function VerifyShell({ children }: { children: ReactNode }) {
  return (
    <div className="student">
      <header className="student__header">
        <Logo size="small" />
      </header>
      <main className="student__main">{children}</main>
    </div>
  );
}

/** Where a person types the code printed on a certificate; it opens that code's verification page. */
function CodeForm() {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [target, setTarget] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      setError('Enter the verification code printed on the certificate');
      return;
    }
    setTarget(`/verify/${encodeURIComponent(trimmed)}`);
  };
  if (target) return <Navigate to={target} />;
  return (
    <form className="verify__form" onSubmit={submit} noValidate>
      <Input
        label="Verification code"
        name="code"
        autoComplete="off"
        placeholder="RDY-XXXX-XXXX"
        value={code}
        error={error}
        onChange={(e) => {
          setCode(e.target.value);
          setError(undefined);
        }}
      />
      <Button type="submit">Verify</Button>
    </form>
  );
}

/**
 * `/verify` without a code (and `/verify/` or a path that is no code, `/verify/a/b`): a field for the code, under
 * 'No certificate has this code' when the path held something that cannot be one.
 */
export function VerifyCodePage({ malformed = false }: { malformed?: boolean }) {
  return (
    <VerifyShell>
      <section className="card card__body verify">
        {malformed ? (
          <>
            <div className="verify__icon verify__icon--unknown" aria-hidden="true">
              <SearchX size={40} />
            </div>
            <h1 className="student__title">No certificate has this code</h1>
            <p>Check the code printed on the certificate and type it below.</p>
          </>
        ) : (
          <>
            <div className="verify__icon verify__icon--valid" aria-hidden="true">
              <BadgeCheck size={40} />
            </div>
            <h1 className="student__title">Verify a certificate</h1>
            <p>Type the verification code printed on the certificate to check that it was awarded.</p>
          </>
        )}
        <CodeForm />
      </section>
    </VerifyShell>
  );
}

/** The public page a certificate's QR code opens: says whether a certificate with this code stands. */
export function VerifyPage() {
  const { code = '' } = useParams<{ code: string }>();
  const [attempt, setAttempt] = useState(0);
  const verification = useCertificateVerification(code, attempt);

  return (
    <VerifyShell>
      <section
        className="card card__body verify"
        aria-live="polite"
        aria-busy={verification.status === 'checking'}
      >
        {verification.status === 'checking' && (
          <div className="verify__status">
            <Spinner decorative />
            <p>Checking certificate {code}…</p>
          </div>
        )}
        {verification.status === 'valid' && (
          <>
            <div className="verify__icon verify__icon--valid" aria-hidden="true">
              <BadgeCheck size={40} />
            </div>
            <h1 className="student__title">Valid certificate</h1>
            <p>
              This certificate was awarded to <strong>{verification.certificate.name}</strong> on{' '}
              <strong>{formatDate(verification.certificate.issuedAt)}</strong>.
            </p>
            <dl className="verify__facts">
              <div>
                <dt>Assessment</dt>
                <dd>{verification.certificate.assessmentTitle}</dd>
              </div>
              <div>
                <dt>Score</dt>
                <dd>{verification.certificate.percentage}%</dd>
              </div>
              <div>
                <dt>Verification code</dt>
                <dd className="verify__code">{code.toUpperCase()}</dd>
              </div>
            </dl>
          </>
        )}
        {verification.status === 'unknown' && (
          <>
            <div className="verify__icon verify__icon--unknown" aria-hidden="true">
              <SearchX size={40} />
            </div>
            <h1 className="student__title">No certificate has this code</h1>
            <p>
              No valid certificate matches <strong className="verify__code">{code}</strong>. Check the code
              printed on the certificate; a certificate that was withdrawn no longer verifies.
            </p>
          </>
        )}
        {verification.status === 'failed' && (
          <>
            <div className="verify__icon verify__icon--unknown" aria-hidden="true">
              <AlertTriangle size={40} />
            </div>
            <h1 className="student__title">The certificate could not be checked</h1>
            <p>Something went wrong on our side. Please try again in a moment.</p>
            <Button onClick={() => setAttempt((n) => n + 1)}>Try again</Button>
          </>
        )}
      </section>
    </VerifyShell>
  );
}
