import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { AlertTriangle, BadgeCheck, Download, SearchX } from 'lucide-react';
import { Button, Input, Logo, Spinner } from '../../../components/ui';
import { formatDay } from '../../../i18n/format';
import { LanguageSelect } from '../../../i18n/language-select';
import { T, useI18n, useT } from '../../../i18n/react';
import { useCertificateVerification } from '../api/certificate-verification';
import { credentialLink } from '../../../lib/credential-link';
import { CredentialCheckForm } from './credential-check';
import { useVisitorLanguage } from '../../../i18n/use-visitor-language';

/**
 * A public student page's frame (verification, a path that does not exist): in the visitor's language, shown once it
 * is active, with a switch. `ownMain` when the page gives its own `<main>`.
 */
export function VisitorShell({
  children,
  ownMain = false,
  className,
}: {
  children: ReactNode;
  ownMain?: boolean;
  className?: string;
}) {
  const language = useVisitorLanguage();
  const body = language.ready ? (
    children
  ) : (
    <div className="center-block">
      <Spinner size="lg" decorative />
    </div>
  );
  return (
    <div className={className ? `student ${className}` : 'student'}>
      <header className="student__header">
        <Logo size="small" />
        {language.ready && <LanguageSelect onChange={language.choose} />}
      </header>
      {ownMain ? body : <main className="student__main">{body}</main>}
    </div>
  );
}

/** Where a person types the code printed on a certificate; it opens that code's verification page. */
function CodeForm() {
  const t = useT();
  const [code, setCode] = useState('');
  // Whether the empty code was refused: its words follow a change of language.
  const [error, setError] = useState(false);
  const [target, setTarget] = useState<string>();
  const navigate = useNavigate();
  // The move happens after the submit event, not inside it. On a verification page the form stays on screen,
  // emptied for the next code.
  useEffect(() => {
    if (!target) return;
    navigate(target);
    setTarget(undefined);
    setCode('');
  }, [target, navigate]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = code.trim();
    if (!trimmed) {
      setError(true);
      return;
    }
    setTarget(`/verify/${encodeURIComponent(trimmed)}`);
  };
  return (
    <form className="verify__form" onSubmit={submit} noValidate>
      <Input
        label={t('verify.codeLabel')}
        name="code"
        autoComplete="off"
        placeholder="RDY-XXXX-XXXX"
        value={code}
        error={error ? t('verify.enterCode') : undefined}
        onChange={(e) => {
          setCode(e.target.value);
          setError(false);
        }}
      />
      <Button type="submit">{t('verify.submit')}</Button>
    </form>
  );
}

/**
 * `/verify` without a code (and `/verify/` or a path that is no code, `/verify/a/b`): a field for the code, under
 * 'No certificate has this code' when the path held something that cannot be one.
 */
export function VerifyCodePage({ malformed = false }: { malformed?: boolean }) {
  return (
    <VisitorShell>
      <CodeSection malformed={malformed} />
    </VisitorShell>
  );
}

function CodeSection({ malformed }: { malformed: boolean }) {
  const t = useT();
  return (
    <section className="card card__body verify">
      {malformed ? (
        <>
          <div className="verify__icon verify__icon--unknown" aria-hidden="true">
            <SearchX size={40} />
          </div>
          <h1 className="student__title">{t('verify.unknownTitle')}</h1>
          <p>{t('verify.malformedText')}</p>
        </>
      ) : (
        <>
          <div className="verify__icon verify__icon--valid" aria-hidden="true">
            <BadgeCheck size={40} />
          </div>
          <h1 className="student__title">{t('verify.formTitle')}</h1>
          <p>{t('verify.formText')}</p>
        </>
      )}
      <CodeForm />
      <CredentialCheckForm />
    </section>
  );
}

/** Under an answer (valid or unknown): the field to check another code without going back. */
function AnotherCode() {
  const t = useT();
  return (
    <>
      <div className="verify__another">
        <h2 className="verify__another-title">{t('verify.anotherTitle')}</h2>
        <CodeForm />
      </div>
      <CredentialCheckForm />
    </>
  );
}

/** The public page a certificate's QR code opens: says whether a certificate with this code stands. */
export function VerifyPage() {
  return (
    <VisitorShell>
      <Verification />
    </VisitorShell>
  );
}

function Verification() {
  const { code = '' } = useParams<{ code: string }>();
  const [attempt, setAttempt] = useState(0);
  const verification = useCertificateVerification(code, attempt);
  const t = useT();
  const i18n = useI18n();

  return (
    <section
      className="card card__body verify"
      aria-live="polite"
      aria-busy={verification.status === 'checking'}
    >
      {verification.status === 'checking' && (
        <div className="verify__status">
          <Spinner decorative />
          <p>{t('verify.checking', { code })}</p>
        </div>
      )}
      {verification.status === 'valid' && (
        <>
          <div className="verify__icon verify__icon--valid" aria-hidden="true">
            <BadgeCheck size={40} />
          </div>
          <h1 className="student__title">{t('verify.validTitle')}</h1>
          <p>
            <T
              id="verify.awarded"
              values={{
                name: verification.certificate.name,
                date: formatDay(i18n, verification.certificate.issuedAt),
              }}
              // dir="auto" isolates the name: one written right to left cannot reorder the date after it.
              components={{ 0: <strong dir="auto" />, 1: <strong /> }}
            />
          </p>
          <dl className="verify__facts">
            <div>
              <dt>{t('verify.assessment')}</dt>
              <dd dir="auto">{verification.certificate.assessmentTitle}</dd>
            </div>
            <div>
              <dt>{t('verify.score')}</dt>
              <dd>{t('percent', { percentage: verification.certificate.percentage })}</dd>
            </div>
            <div>
              <dt>{t('verify.codeLabel')}</dt>
              <dd className="verify__code">{code.toUpperCase()}</dd>
            </div>
          </dl>
          <a
            className="btn btn--secondary btn--md verify__badge"
            href={credentialLink(code.toUpperCase())}
            download
          >
            <Download size={18} aria-hidden="true" />
            <span>{t('certificate.openBadge')}</span>
          </a>
          <AnotherCode />
        </>
      )}
      {verification.status === 'unknown' && (
        <>
          <div className="verify__icon verify__icon--unknown" aria-hidden="true">
            <SearchX size={40} />
          </div>
          <h1 className="student__title">{t('verify.unknownTitle')}</h1>
          <p>
            <T
              id="verify.unknownText"
              values={{ code }}
              components={{ 0: <strong className="verify__code" /> }}
            />
          </p>
          <AnotherCode />
        </>
      )}
      {verification.status === 'failed' && (
        <>
          <div className="verify__icon verify__icon--unknown" aria-hidden="true">
            <AlertTriangle size={40} />
          </div>
          <h1 className="student__title">{t('verify.failedTitle')}</h1>
          <p>{t('verify.failedText')}</p>
          <Button onClick={() => setAttempt((n) => n + 1)}>{t('app.tryAgain')}</Button>
        </>
      )}
    </section>
  );
}
