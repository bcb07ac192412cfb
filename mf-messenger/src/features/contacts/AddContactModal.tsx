import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ApiError,
  FormError,
  Modal,
  PhoneField,
  ServerStrings,
  clampCharacters,
  cleanUsername,
  config,
  errorText,
  guessCountry,
  toE164,
  usePhoneValidation,
  useAuthStore,
  useContactsStore,
  useNotificationsStore,
  useSubmit,
  type CountryCode,
} from '@messenger/shared';

interface AddContactModalProps {
  onClose: () => void;
  initial?: { name?: string; username?: string };
}

/**
 * Spec §5 add-contact modal. Submit is disabled when the phone is invalid and no username is given, when the
 * name is empty, or when the phone is one's own. A leading @ of the username is dropped.
 */
export function AddContactModal({ onClose, initial }: AddContactModalProps) {
  const { t } = useTranslation('messenger');
  const myPhone = useAuthStore((state) => state.user?.phone ?? null);
  const [country, setCountry] = useState<CountryCode>(() => guessCountry());
  const [phone, setPhone] = useState('');
  const [name, setName] = useState(initial?.name ?? '');
  const [username, setUsername] = useState(initial?.username ?? '');
  // Nobody found, or already a contact: said as a warning, apart from the form's failures.
  const [warning, setWarning] = useState<string | null>(null);
  const form = useSubmit((failure) => errorText(failure, 'messenger:addContact.error'));

  const rulesReady = usePhoneValidation();
  const e164 = toE164(phone, country);
  const cleaned = cleanUsername(username);
  const ownPhone = e164 !== null && e164 === myPhone;
  // A typed phone is never dropped for the username while the rules that would validate it are still loading.
  const phoneWaiting = !rulesReady && phone.replace(/\D/g, '') !== '';
  const incomplete = phoneWaiting || (!e164 && !cleaned) || !name.trim() || ownPhone;

  const submit = form.handler(async () => {
    if (incomplete) return;
    setWarning(null);
    let result;
    try {
      result = await useContactsStore.getState().add({
        ...(e164 ? { user_phone: e164 } : {}),
        name: name.trim(),
        ...(cleaned ? { username: cleaned } : {}),
      });
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.message === ServerStrings.contactExists)) throw failure;
      setWarning(errorText(failure, 'messenger:addContact.error'));
      return;
    }
    if (result.added) {
      useNotificationsStore.getState().push({ kind: 'success', text: t('addContact.added') });
      onClose();
    } else if (result.invited) {
      useNotificationsStore.getState().push({ kind: 'info', text: t('addContact.invited', { name: name.trim() }) }, config.notificationDismissMs);
      onClose();
    } else {
      // Nobody has that username; or the number is a deleted account's, which never signs in again.
      setWarning(e164 ? t('addContact.phoneWarning') : t('addContact.addWarning'));
    }
  });

  return (
    <Modal title={t('addContact.title')} onClose={onClose}>
      <form className="msg-form" onSubmit={submit} noValidate>
        <PhoneField
          country={country}
          value={phone}
          onChange={(value, nextCountry) => {
            setPhone(value);
            setCountry(nextCountry);
            setWarning(null);
            form.clearError();
          }}
          countryLabel={t('addContact.country')}
          phoneLabel={t('addContact.phone')}
          invalid={ownPhone}
          describedBy={ownPhone ? 'own-phone' : undefined}
          autoFocus={!initial?.username}
        />
        {ownPhone && (
          <p id="own-phone" className="ui-error">
            {t('addContact.ownPhone')}
          </p>
        )}
        <label className="ui-field">
          <span>{t('addContact.name')}</span>
          <input value={name} onChange={(event) => setName(clampCharacters(event.target.value, config.nameMax))} required />
        </label>
        <label className="ui-field">
          <span>{t('addContact.username')}</span>
          <input
            value={username}
            maxLength={config.usernameMax + 1}
            aria-describedby="username-hint"
            onChange={(event) => setUsername(event.target.value)}
          />
        </label>
        <p id="username-hint" className="ui-hint">
          {t('addContact.usernameHint')}
        </p>
        <FormError error={form.error} />
        {warning && (
          <p className="ui-warning" role="alert">
            {warning}
          </p>
        )}
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={form.busy || incomplete}>
            {t('addContact.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
