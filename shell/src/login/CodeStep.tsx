import { useEffect, useState } from 'react';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { FormError, authApi, beginSession, config, errorText, usePhoneFormatter, useSubmit } from '@messenger/shared';
import { useLoginStore } from './useLoginStore';
import { loginErrorText } from './login-errors';
import { pathAfterSignIn, takeInviteCode } from './invite-code';

const secondsUntil = (at: number) => Math.max(0, Math.ceil((at - Date.now()) / 1000));
// Out here, not inline in the action: the compiler's lint takes an action handed to `form.handler` during render for render code.
const resendTime = (after: number | undefined) => Date.now() + (after ?? 60) * 1000;

/**
 * Seconds left until `at`, ticking once a second. A new `at` (a resend) starts from the clock as it is now: the
 * last tick of the previous countdown may be minutes old, which once showed "432 s" for a 60 s wait.
 */
function useCountdown(at: number): number {
  const [countdown, setCountdown] = useState(() => ({ at, left: secondsUntil(at) }));
  if (countdown.at !== at) setCountdown({ at, left: secondsUntil(at) });
  useEffect(() => {
    if (secondsUntil(at) === 0) return;
    const timer = setInterval(() => {
      const left = secondsUntil(at);
      setCountdown({ at, left });
      if (left === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [at]);
  return countdown.at === at ? countdown.left : secondsUntil(at);
}

/** Step 2: the 6-digit code (typed or pasted), a resend after 60 s, or back to another number. */
export function CodeStep() {
  const formatPhone = usePhoneFormatter();
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { phone, resendAt, setResendAt, signedIn, reset } = useLoginStore();
  const [code, setCode] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  // Signing in and resending run apart (a code typed while a resend is on its way is still sent) and share one error line.
  const describe = (failure: unknown) => loginErrorText(failure) ?? errorText(failure, 'shell:login.error');
  const form = useSubmit(describe);
  const resending = useSubmit(describe);
  const secondsLeft = useCountdown(resendAt);

  const signIn = (value: string) =>
    form.run(async () => {
      if (value.length !== config.codeLength) return;
      try {
        const result = await authApi.signIn(phone, value, takeInviteCode());
        beginSession(result.jwt_info);
        signedIn(result.is_new_user);
        if (!result.is_new_user) navigate(pathAfterSignIn(), { replace: true, state: { refresh: true } });
      } catch (failure) {
        // A refused code is typed again from scratch.
        setCode('');
        throw failure;
      }
    });

  const onChange = (value: string) => {
    // Digits only; a pasted "123 456" or "Code: 123456" still works.
    const digits = value.replace(/\D/g, '').slice(0, config.codeLength);
    setCode(digits);
    form.clearError();
    resending.clearError();
    if (digits.length === config.codeLength) void signIn(digits);
  };

  const resend = resending.handler(async () => {
    form.clearError();
    setNotice(null);
    const result = await authApi.sendCode(phone);
    setResendAt(resendTime(result.resend_after));
    setNotice(t('login.codeResent'));
  });

  return (
    <form
      className="shell-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void signIn(code);
      }}
    >
      <h2>{t('login.codeTitle')}</h2>
      <p>{t('login.codeSentTo', { phone: formatPhone(phone) })}</p>
      <label className="ui-field">
        <span>{t('login.code')}</span>
        <input
          className="shell-code-input"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={config.codeLength}
          value={code}
          onChange={(event) => onChange(event.target.value)}
          onPaste={(event) => {
            event.preventDefault();
            onChange(event.clipboardData.getData('text'));
          }}
          autoFocus
        />
      </label>
      <FormError error={form.error ?? resending.error} />
      {notice && (
        <p className="ui-hint" role="status">
          {notice}
        </p>
      )}
      <button type="submit" className="ui-button ui-button-primary" disabled={code.length !== config.codeLength || form.busy}>
        {t('login.signIn')}
      </button>
      <button type="button" className="ui-button" onClick={resend} disabled={secondsLeft > 0 || resending.busy}>
        {secondsLeft > 0 ? t('login.resendIn', { seconds: secondsLeft }) : t('login.resend')}
      </button>
      <button type="button" className="shell-link-button" onClick={reset}>
        {t('login.changePhone')}
      </button>
    </form>
  );
}
