import { useTranslation } from 'react-i18next';
import { hangUpCall, useCallStore, useNotificationsStore } from '@messenger/shared';
import { RemoteSlot } from './RemoteSlot';
import { Remotes } from './registry';

/**
 * The calls remote's overlay (call window, incoming call, call notices), loaded the first time there is a call
 * to show: people who never call never download it. If it cannot be loaded, the person is told (a call of theirs
 * could not be shown), a call they were starting is hung up rather than left ringing with no window to end it,
 * and the next call asks for the remote again.
 */
export function CallLayerSlot() {
  const { t } = useTranslation('shell');
  const needed = useCallStore((state) => state.active !== null || state.incoming !== null || state.notice !== null);
  const failed = () => {
    const { active } = useCallStore.getState();
    if (active) void hangUpCall(active.chatId, active.callId).catch(() => undefined);
    useCallStore.setState({ active: null, incoming: null, notice: null });
    useNotificationsStore.getState().push({ kind: 'error', text: t('remote.callsFailed') });
  };
  return needed ? <RemoteSlot remote={Remotes.calls} module="CallLayer" quiet onFailed={failed} /> : null;
}
