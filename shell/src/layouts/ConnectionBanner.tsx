import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnectionStore } from '@messenger/shared';

/** How long a reconnection may take before it is worth telling the person. */
const QUIET_MS = 1500;
/** How long "connected again" stays after a loss the person was told about. */
const RESTORED_MS = 3000;

/**
 * Says so when live updates stop (beyond a short grace period), so a dead connection is never mistaken for a
 * quiet chat — and, briefly, when they are back.
 */
export function ConnectionBanner() {
  const { t } = useTranslation('shell');
  const status = useConnectionStore((state) => state.status);
  const [shown, setShown] = useState<'lost' | 'restored' | null>(null);
  const troubled = status === 'offline' || status === 'connecting';

  useEffect(() => {
    if (!troubled) return;
    const timer = setTimeout(() => setShown('lost'), QUIET_MS);
    return () => clearTimeout(timer);
  }, [troubled]);

  // Back online after a loss that was shown: say so, then go.
  if (status === 'online' && shown === 'lost') setShown('restored');
  if (status === 'idle' && shown !== null) setShown(null);
  useEffect(() => {
    if (shown !== 'restored') return;
    const timer = setTimeout(() => setShown(null), RESTORED_MS);
    return () => clearTimeout(timer);
  }, [shown]);

  if (shown === 'lost' && troubled) {
    return (
      <div className="shell-connection-banner" role="status">
        {status === 'offline' ? t('connection.offline') : t('connection.connecting')}
      </div>
    );
  }
  if (shown === 'restored') {
    return (
      <div className="shell-connection-banner shell-connection-restored" role="status">
        {t('connection.restored')}
      </div>
    );
  }
  return null;
}
