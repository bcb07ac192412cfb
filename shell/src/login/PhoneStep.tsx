import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PhoneField, authApi, errorText, guessCountry, toE164, usePhoneValidation, type CountryCode } from '@messenger/shared';
import { useLoginStore } from './useLoginStore';
import { loginErrorText } from './login-errors';

/** Step 1: country and phone number, formatted as typed; Continue only when the number is valid. */
export function PhoneStep() {
  const { t } = useTranslation('shell');
  const codeSent = useLoginStore((state) => state.codeSent);
  const passwordNeeded = useLoginStore((state) => state.passwordNeeded);
  const [country, setCountry] = useState<CountryCode>(() => guessCountry());
  const [phone, setPhone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rulesReady = usePhoneValidation(phone !== '');
  const e164 = toE164(phone, country);
  const showInvalid = rulesReady && phone.replace(/\D/g, '').length > 4 && !e164;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!e164 || busy) return;
    setBusy(true);
    setError(null);
    try {
      const result = await authApi.sendCode(e164);
      // Staff with passwords sign in with them; everyone else (and staff still to set theirs) with the SMS code.
      if (result.is_manager && result.password_set) passwordNeeded(e164);
      else codeSent(e164, result.is_manager, Date.now() + (result.resend_after ?? 60) * 1000);
    } catch (failure) {
      setError(loginErrorText(failure) ?? errorText(failure, 'shell:login.error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="shell-form" onSubmit={submit} noValidate>
      <p>{t('login.phoneSubtitle')}</p>
      <PhoneField
        country={country}
        value={phone}
        onChange={(value, nextCountry) => {
          setPhone(value);
          setCountry(nextCountry);
          setError(null);
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
      {error && (
        <p className="ui-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="ui-button ui-button-primary" disabled={!e164 || busy}>
        {t('login.continue')}
      </button>
    </form>
  );
}
