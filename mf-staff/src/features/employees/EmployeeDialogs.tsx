import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FormError,
  Modal,
  PhoneField,
  clampCharacters,
  cleanUsername,
  config,
  errorText,
  guessCountry,
  isValidUsername,
  staffApi,
  toE164,
  usePhoneValidation,
  useSubmit,
  type CountryCode,
  type Credentials,
  type Employee,
} from '@messenger/shared';

/** Add a manager (`POST /api/user/manager`): phone, name, notes; the server answers with their credentials. */
export function AddManagerDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (credentials: Credentials) => void }) {
  const { t } = useTranslation('staff');
  const [country, setCountry] = useState<CountryCode>(() => guessCountry());
  const [phone, setPhone] = useState('');
  const [name, setName] = useState('');
  const [notes, setNotes] = useState('');
  const form = useSubmit((failure) => errorText(failure, 'staff:employees.saveError'));
  usePhoneValidation();
  const e164 = toE164(phone, country);

  const submit = form.handler(async () => {
    if (!e164 || !name.trim()) return;
    const result = await staffApi.createManager({ phone: e164, name: name.trim(), notes: notes.trim() });
    onCreated(result.credentials);
  });

  return (
    <Modal title={t('employees.addTitle')} onClose={onClose}>
      <form className="ui-form" onSubmit={submit} noValidate>
        <PhoneField
          country={country}
          value={phone}
          onChange={(value, next) => {
            setPhone(value);
            setCountry(next);
          }}
          countryLabel={t('employees.country')}
          phoneLabel={t('employees.phone')}
          autoFocus
        />
        <label className="ui-field">
          <span>{t('employees.name')}</span>
          <input value={name} onChange={(event) => setName(clampCharacters(event.target.value, config.nameMax))} />
        </label>
        <label className="ui-field">
          <span>{t('employees.notes')}</span>
          <textarea value={notes} rows={3} onChange={(event) => setNotes(clampCharacters(event.target.value, config.notesMax))} />
        </label>
        <FormError error={form.error} />
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={!e164 || !name.trim() || form.busy}>
            {t('employees.add')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** Edit someone's phone, name, username and notes (`PUT /api/user/manager`). */
export function EditEmployeeDialog({ employee, onClose, onSaved }: { employee: Employee; onClose: () => void; onSaved: (employee: Employee) => void }) {
  const { t } = useTranslation('staff');
  const [country, setCountry] = useState<CountryCode>(() => guessCountry());
  const [phone, setPhone] = useState(employee.phone ?? '');
  const [name, setName] = useState(employee.name);
  const [username, setUsername] = useState(employee.username ?? '');
  const [notes, setNotes] = useState(employee.notes);
  const form = useSubmit((failure) => errorText(failure, 'staff:employees.saveError'));
  usePhoneValidation();
  const e164 = phone ? toE164(phone, country) : null;
  const cleaned = cleanUsername(username);
  const valid = (phone === '' || e164 !== null) && isValidUsername(cleaned);

  const submit = form.handler(async () => {
    if (!valid) return;
    const changes = {
      ...(e164 && e164 !== employee.phone ? { phone: e164 } : {}),
      ...(name.trim() !== employee.name ? { name: name.trim() } : {}),
      ...(cleaned !== (employee.username ?? '') ? { username: cleaned || null } : {}),
      ...(notes !== employee.notes ? { notes } : {}),
    };
    const result = await staffApi.edit(employee.id, changes);
    onSaved(result.user);
  });

  return (
    <Modal title={t('employees.editTitle', { name: employee.name || employee.phone || '' })} onClose={onClose}>
      <form className="ui-form" onSubmit={submit} noValidate>
        <PhoneField
          country={country}
          value={phone}
          onChange={(value, next) => {
            setPhone(value);
            setCountry(next);
          }}
          countryLabel={t('employees.country')}
          phoneLabel={t('employees.phone')}
        />
        <label className="ui-field">
          <span>{t('employees.name')}</span>
          <input value={name} onChange={(event) => setName(clampCharacters(event.target.value, config.nameMax))} />
        </label>
        <label className="ui-field">
          <span>{t('employees.username')}</span>
          <input value={username} maxLength={config.usernameMax + 1} aria-invalid={!isValidUsername(cleaned)} onChange={(event) => setUsername(event.target.value)} />
        </label>
        <label className="ui-field">
          <span>{t('employees.notes')}</span>
          <textarea value={notes} rows={3} onChange={(event) => setNotes(clampCharacters(event.target.value, config.notesMax))} />
        </label>
        <FormError error={form.error} />
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={!valid || form.busy}>
            {t('common:actions.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
