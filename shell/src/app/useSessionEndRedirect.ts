import { useEffect } from 'react';
import { api, stopSession } from '@messenger/shared';

/**
 * When the API client gives up on the session (refresh refused), drop everything of it; the route guard then
 * sends the person to /login (spec §8).
 */
export function useSessionEndRedirect(): void {
  useEffect(() => {
    api.setSessionEndedHandler(() => stopSession());
    return () => api.setSessionEndedHandler(() => undefined);
  }, []);
}
