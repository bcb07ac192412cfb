import { create } from 'zustand';
import type { ConnectionStatus } from '../events/bus';

/** Whether live events are flowing; the shell shows it so nobody mistakes a dead connection for a quiet chat. */
export const useConnectionStore = create<{ status: ConnectionStatus }>(() => ({ status: 'idle' }));
