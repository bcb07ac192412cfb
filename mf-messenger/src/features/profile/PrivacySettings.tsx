import { useTranslation } from 'react-i18next';
import type { LastSeenPrivacy, Me } from '@messenger/shared';
import { saveSettings } from './saveSettings';

const CHOICES: LastSeenPrivacy[] = ['everyone', 'contacts', 'nobody'];

/**
 * Who sees when I was last online (and whether I am online now). The server enforces it: whoever may not see it
 * gets only roughly when ("last seen recently").
 */
export function PrivacySettings({ user }: { user: Me }) {
  const { t } = useTranslation('messenger');
  const choose = (value: LastSeenPrivacy) => saveSettings({ last_seen_privacy: value });
  return (
    <fieldset className="msg-settings">
      <legend>{t('privacy.title')}</legend>
      <label className="msg-switch">
        <span>{t('privacy.lastSeen')}</span>
        <select value={user.last_seen_privacy} onChange={(event) => void choose(event.target.value as LastSeenPrivacy)}>
          {CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {t(`privacy.${choice}`)}
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
