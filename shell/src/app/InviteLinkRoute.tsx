import { Navigate, useParams } from 'react-router-dom';
import { useAuthStore } from '@messenger/shared';
import { rememberInviteCode } from '../login/invite-code';

/**
 * `/link/{code}`: someone shared their invite link. A signed-in person just goes to the chats; anyone else signs
 * in with the code remembered, so a new account is attributed to the inviter (`?code=` on sign-in).
 */
export function InviteLinkRoute() {
  const { code } = useParams();
  const hasSession = useAuthStore((state) => state.hasSession);
  if (hasSession) return <Navigate to="/" replace />;
  if (code) rememberInviteCode(code);
  return <Navigate to="/login" replace state={{ invited: true }} />;
}
