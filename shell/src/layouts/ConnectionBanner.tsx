import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnectionStore } from '@messenger/shared';

/** How long a reconnection may take before it is worth telling the person. */
const QUIET_MS = 1500;

/** Says so when live updates stop, so a dead connection is never mistaken for a quiet chat. */
export function ConnectionBanner() {
  const { t } = useTranslation('shell');
  const status = useConnectionStore((state) => state.status);
  const [visible, setVisible] = useState(false);
  const troubled = status === 'offline' || status === 'connecting';

  useEffect(() => {
    if (!troubled) return;
    const timer = setTimeout(() => setVisible(true), QUIET_MS);
    return () => {
      clearTimeout(timer);
      setVisible(false);
    };
  }, [troubled]);

  if (!visible || !troubled) return null;
  return (
    <div className="shell-connection-banner" role="status">
      {status === 'offline' ? t('connection.offline') : t('connection.connecting')}
    </div>
  );
}
