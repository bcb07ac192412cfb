import { useCallStore } from '@messenger/shared';
import { RemoteSlot } from './RemoteSlot';
import { Remotes } from './registry';

/**
 * The calls remote's overlay (call window, incoming call, call notices), loaded the first time there is a call
 * to show: people who never call never download it.
 */
export function CallLayerSlot() {
  const needed = useCallStore((state) => state.active !== null || state.incoming !== null || state.notice !== null);
  return needed ? <RemoteSlot remote={Remotes.calls} module="CallLayer" quiet /> : null;
}
