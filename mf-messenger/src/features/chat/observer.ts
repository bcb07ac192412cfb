import { createContext, useContext } from 'react';

/**
 * Whether the open chat is being read by an admin who is not in it (spec §6: staff read secret chats). Such a
 * reader sees files through admin media URLs, and cannot write, reply or forward from it.
 */
export const ObserverContext = createContext(false);

export function useIsObserver(): boolean {
  return useContext(ObserverContext);
}
