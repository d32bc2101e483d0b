import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { KeyRound } from 'lucide-react';
import { z } from 'zod';
import { Button, FormModal, Input } from '../../../components/ui';
import { errorCode } from '../../../lib/errors';
import { failAtField } from '../../../lib/form-errors';
import { bindFields } from '../../../lib/forms';
import { notify, notifyFailure } from '../../../lib/toast';
import {
  useBeginReauthenticationPasskeyMutation,
  useGetSecurityStatusQuery,
  useReauthenticateMutation,
  type StepUpMethod,
} from '../api/multi-factor-api';
import { codeSchema } from '../api/schemas';
import { AuthenticatorCodeInput } from './second-factor';
import { answerWithPasskey, passkeysSupported, PasskeyUnavailable } from '../passkeys';
import { adminT, useAdminT } from '../../../i18n/admin/admin-i18n';

/** What the server answers a change of a factor made without a fresh proof of the person. */
const REAUTHENTICATION_REQUIRED = 'reauthentication_required';

type AskForProof = () => Promise<boolean>;
const StepUpContext = createContext<AskForProof | null>(null);

/**
 * Holds the "Confirm it's you" dialog for the screen inside it: a change refused for want of a fresh proof opens
 * it, and the change carries on once the admin has proved it is them (`useWithProof`).
 */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<((proved: boolean) => void) | null>(null);
  const ask = useCallback<AskForProof>(
    () => new Promise<boolean>((resolve) => setPending(() => resolve)),
    [],
  );
  const done = (proved: boolean) => {
    pending?.(proved);
    setPending(null);
  };
  return (
    <StepUpContext.Provider value={ask}>
      {children}
      {pending && <ReauthenticateDialog onDone={done} />}
    </StepUpContext.Provider>
  );
}

/**
 * Runs a change of a factor; when the server asks for a fresh proof, asks the admin for it and runs the change
 * again. Answers nothing when the admin closed the dialog instead.
 */
export function useWithProof() {
  const ask = useContext(StepUpContext);
  return useCallback(
    async <T,>(change: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await change();
      } catch (err) {
        if (errorCode(err) !== REAUTHENTICATION_REQUIRED || !ask) throw err;
        if (!(await ask())) return undefined;
        return change();
      }
    },
    [ask],
  );
}

/** One form for both typed proofs; only the field shown is checked. */
const proofSchema = (method: 'password' | 'totp' | undefined) =>
  z.object({
    password: method === 'password' ? z.string().min(1, adminT('auth.stepUp.passwordRequired')) : z.string(),
    code: method === 'totp' ? codeSchema.shape.code : z.string(),
  });
type ProofInput = z.infer<ReturnType<typeof proofSchema>>;

function ReauthenticateDialog({ onDone }: { onDone: (proved: boolean) => void }) {
  const t = useAdminT();
  const { data: status } = useGetSecurityStatusQuery();
  const methods: StepUpMethod[] = status?.reauthentication.methods ?? ['password'];
  const typed = methods.filter((m): m is 'password' | 'totp' => m !== 'passkey');
  const [method, setMethod] = useState<'password' | 'totp' | undefined>(typed[0]);
  const [reauthenticate, proving] = useReauthenticateMutation();
  const [beginPasskey, askingPasskey] = useBeginReauthenticationPasskeyMutation();
  const form = useForm<ProofInput>({
    resolver: zodResolver(proofSchema(method)),
    defaultValues: { password: '', code: '' },
  });
  const field = bindFields(form);
  const busy = proving.isLoading || askingPasskey.isLoading || form.formState.isSubmitting;

  const proved = () => {
    notify.success(adminT('auth.stepUp.confirmed'));
    onDone(true);
  };
  const onSubmit = async (input: ProofInput) => {
    try {
      await reauthenticate(
        method === 'totp' ? { code: input.code! } : { password: input.password! },
      ).unwrap();
      proved();
    } catch (err) {
      failAtField(err, adminT('auth.stepUp.failed'), {
        setError: form.setError,
        fields: ['password', 'code'],
      });
    }
  };
  const withPasskey = async () => {
    try {
      const passkey = await answerWithPasskey(await beginPasskey().unwrap());
      await reauthenticate({ passkey }).unwrap();
      proved();
    } catch (err) {
      if (err instanceof PasskeyUnavailable) notify.error(err.message);
      else notifyFailure(err, adminT('auth.stepUp.failed'));
    }
  };
  const switchTo = (next: 'password' | 'totp') => {
    form.clearErrors();
    setMethod(next);
  };

  return (
    <FormModal
      open
      size="sm"
      title={t('auth.stepUp.title')}
      submitLabel={t('auth.stepUp.confirm')}
      busy={busy}
      onClose={() => onDone(false)}
      onSubmit={
        method
          ? form.handleSubmit(onSubmit)
          : (event) => {
              event.preventDefault();
              onDone(false);
            }
      }
    >
      <p>{method ? t('auth.stepUp.intro') : t('auth.stepUp.noMethod')}</p>
      {method === 'password' && (
        <Input
          key="password"
          label={t('auth.stepUp.passwordLabel')}
          type="password"
          autoComplete="current-password"
          autoFocus
          {...field('password')}
        />
      )}
      {method === 'totp' && <AuthenticatorCodeInput key="code" {...field('code')} />}
      <div className="step-up__other-ways">
        {method === 'password' && methods.includes('totp') && (
          <Button variant="ghost" onClick={() => switchTo('totp')} disabled={busy}>
            {t('auth.stepUp.useCode')}
          </Button>
        )}
        {method === 'totp' && methods.includes('password') && (
          <Button variant="ghost" onClick={() => switchTo('password')} disabled={busy}>
            {t('auth.stepUp.usePassword')}
          </Button>
        )}
        {methods.includes('passkey') && passkeysSupported() && (
          <Button
            variant="secondary"
            icon={<KeyRound size={16} aria-hidden="true" />}
            onClick={() => void withPasskey()}
            disabled={busy}
          >
            {t('auth.stepUp.usePasskey')}
          </Button>
        )}
      </div>
    </FormModal>
  );
}
