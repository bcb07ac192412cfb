import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userApi } from '../api/endpoints';
import { errorText } from '../i18n';
import { config } from '../config';
import { guessCountry, toE164, usePhoneValidation, type CountryCode } from '../rules/phone';
import { beginSession } from '../services/session';
import { Modal } from './Modal';
import { PhoneField } from './PhoneField';
import { FormError, useSubmit } from './use-submit';

/**
 * A guest becomes a full user with their phone (`PUT /user/phone`, then the code with `PUT /user/phone/verify`)
 * and keeps their chats; if the phone already has an account, the guest's chats move into it.
 */
export function TemporaryLoginModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('common');
  const [country, setCountry] = useState<CountryCode>(() => guessCountry());
  const [phone, setPhone] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const form = useSubmit((failure) => errorText(failure, 'common:guest.error'));
  usePhoneValidation();
  const e164 = toE164(phone, country);

  const sendCode = form.handler(async () => {
    if (!e164) return;
    await userApi.setPhone(e164);
    setSentTo(e164);
  });

  const verify = form.handler(async () => {
    if (!sentTo || code.length !== config.codeLength) return;
    const result = await userApi.verifyPhone(sentTo, code);
    onClose();
    // The session starts over: the account (and, after a merge, even its id) may have changed.
    beginSession(result.jwt_info);
  });

  return (
    <Modal title={t('guest.title')} onClose={onClose}>
      {sentTo === null ? (
        <form className="ui-form" onSubmit={sendCode} noValidate>
          <p className="ui-modal-text">{t('guest.explain')}</p>
          <PhoneField
            country={country}
            value={phone}
            onChange={(value, next) => {
              setPhone(value);
              setCountry(next);
            }}
            countryLabel={t('guest.country')}
            phoneLabel={t('guest.phone')}
            autoFocus
          />
          <FormError error={form.error} />
          <button type="submit" className="ui-button ui-button-primary" disabled={!e164 || form.busy}>
            {t('guest.sendCode')}
          </button>
        </form>
      ) : (
        <form className="ui-form" onSubmit={verify} noValidate>
          <label className="ui-field">
            <span>{t('guest.code')}</span>
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={config.codeLength}
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, config.codeLength))}
            />
          </label>
          <FormError error={form.error} />
          <button type="submit" className="ui-button ui-button-primary" disabled={code.length !== config.codeLength || form.busy}>
            {t('guest.signIn')}
          </button>
        </form>
      )}
    </Modal>
  );
}
