import { useState, type FormEvent } from 'react';
import { Button, TextArea } from '../../../components/ui';
import { formatDay } from '../../../i18n/format';
import { T, useI18n, useT } from '../../../i18n/react';
import { checkCredential, type CredentialCheck } from '../api/credential-check';

type Outcome = { status: 'idle' | 'checking' | 'failed' } | { status: 'done'; answer: CredentialCheck };

/** "Check a credential": a pasted Open Badges credential (VC-JWT) said genuine, revoked or altered. */
export function CredentialCheckForm() {
  const t = useT();
  const i18n = useI18n();
  const [credential, setCredential] = useState('');
  const [empty, setEmpty] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ status: 'idle' });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!credential.trim()) {
      setEmpty(true);
      return;
    }
    setOutcome({ status: 'checking' });
    try {
      setOutcome({ status: 'done', answer: await checkCredential(credential.trim()) });
    } catch (err) {
      console.error('Failed to check the credential:', err);
      setOutcome({ status: 'failed' });
    }
  };
  const answer = outcome.status === 'done' ? outcome.answer : undefined;
  return (
    <form className="verify__another verify__form" onSubmit={(e) => void submit(e)} noValidate>
      <h2 className="verify__another-title">{t('verify.credentialTitle')}</h2>
      <p className="muted">{t('verify.credentialText')}</p>
      <TextArea
        label={t('verify.credentialLabel')}
        name="credential"
        className="input textarea verify__credential-input"
        rows={4}
        spellCheck={false}
        autoComplete="off"
        value={credential}
        error={empty ? t('verify.credentialEmpty') : undefined}
        onChange={(e) => {
          setCredential(e.target.value);
          setEmpty(false);
          setOutcome({ status: 'idle' });
        }}
      />
      <Button type="submit" variant="secondary" loading={outcome.status === 'checking'}>
        {t('verify.credentialSubmit')}
      </Button>
      <div role="status" aria-live="polite">
        {answer?.status === 'genuine' && (
          <p className="verify__verdict verify__verdict--genuine">
            <T
              id="verify.credentialGenuine"
              values={{
                name: answer.name,
                date: formatDay(i18n, answer.issuedAt),
                title: answer.assessmentTitle,
              }}
              components={{ 0: <strong dir="auto" />, 1: <strong /> }}
            />
          </p>
        )}
        {answer?.status === 'revoked' && (
          <p className="verify__verdict verify__verdict--bad">{t('verify.credentialRevoked')}</p>
        )}
        {answer?.status === 'altered' && (
          <p className="verify__verdict verify__verdict--bad">{t('verify.credentialAltered')}</p>
        )}
        {outcome.status === 'failed' && <p className="verify__verdict">{t('verify.failedText')}</p>}
      </div>
    </form>
  );
}
