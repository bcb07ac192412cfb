import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, PhoneField, authApi, errorText, guessCountry, toE164, usePhoneValidation, useSubmit, type CountryCode } from '@messenger/shared';
import { useLoginStore } from './useLoginStore';
import { loginErrorText } from './login-errors';

// Out here, not inline in the action: the compiler's lint takes an action handed to `form.handler` during render for render code.
const resendTime = (after: number | undefined) => Date.now() + (after ?? 60) * 1000;

/** Step 1: country and phone number, formatted as typed; Continue only when the number is valid. */
export function PhoneStep() {
  const { t } = useTranslation('shell');
  const codeSent = useLoginStore((state) => state.codeSent);
  const passwordNeeded = useLoginStore((state) => state.passwordNeeded);
  const [country, setCountry] = useState<CountryCode>(() => guessCountry());
  const [phone, setPhone] = useState('');
  const form = useSubmit((failure) => loginErrorText(failure) ?? errorText(failure, 'shell:login.error'));
  const rulesReady = usePhoneValidation(phone !== '');
  const e164 = toE164(phone, country);
  const showInvalid = rulesReady && phone.replace(/\D/g, '').length > 4 && !e164;

  const submit = form.handler(async () => {
    if (!e164) return;
    // Why the last session ended gives way to what this attempt answers.
    useLoginStore.setState({ endedBecause: null });
    const result = await authApi.sendCode(e164);
    // Staff with passwords sign in with them; everyone else (and staff still to set theirs) with the SMS code.
    if (result.is_manager && result.password_set) passwordNeeded(e164);
    else codeSent(e164, result.is_manager, resendTime(result.resend_after));
  });

  return (
    <form className="shell-form" onSubmit={submit} noValidate>
      <p>{t('login.phoneSubtitle')}</p>
      <PhoneField
        country={country}
        value={phone}
        onChange={(value, nextCountry) => {
          setPhone(value);
          setCountry(nextCountry);
          form.clearError();
        }}
        countryLabel={t('login.country')}
        phoneLabel={t('login.phone')}
        invalid={showInvalid}
        describedBy={showInvalid ? 'phone-hint' : undefined}
        autoFocus
      />
      {showInvalid && (
        <p id="phone-hint" className="ui-hint">
          {t('login.phoneInvalid')}
        </p>
      )}
      <FormError error={form.error} />
      <button type="submit" className="ui-button ui-button-primary" disabled={!e164 || form.busy}>
        {t('login.continue')}
      </button>
    </form>
  );
}
