import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { beginSession, chatsApi, errorText, useAuthStore, useChatsStore, useUsersStore, userApi } from '@messenger/shared';
import { isGroupCode, rememberInviteCode } from '../login/invite-code';

/**
 * `/link/{code}`: someone shared their invite link. A signed-in person gets the private chat with the inviter
 * (and them as a contact). A visitor without an account becomes a guest with that chat at once — they can sign
 * in with their phone later and keep it. Either way the chat opens. A group's link (`C-…`) joins the group;
 * someone not signed in signs in first and comes back here.
 */
export function InviteLinkRoute() {
  const { t } = useTranslation('shell');
  const { code = '' } = useParams();
  const navigate = useNavigate();
  const signedIn = useAuthStore((state) => state.hasSession);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    rememberInviteCode(code);
    if (isGroupCode(code)) {
      if (!signedIn) {
        navigate('/login', { replace: true, state: { invited: true } });
        return;
      }
      chatsApi
        .join(code)
        .then((chat) => {
          if (cancelled) return;
          useChatsStore.getState().upsert(chat);
          // Its members' names: the chat-created event that would fetch them finds the chat known already.
          void useUsersStore.getState().ensure(chat.participants);
          navigate(`/${chat.id}`, { replace: true });
        })
        .catch((failure: unknown) => !cancelled && setError(errorText(failure, 'shell:invite.invalid')));
      return () => {
        cancelled = true;
      };
    }
    userApi
      .followInvite(code, signedIn)
      .then((result) => {
        if (cancelled) return;
        if (result.jwt_info) beginSession(result.jwt_info);
        else {
          useChatsStore.getState().upsert(result.chat);
          void useUsersStore.getState().ensure(result.chat.participants);
        }
        navigate(`/${result.chat.id}`, { replace: true });
      })
      .catch((failure: unknown) => !cancelled && setError(errorText(failure, 'shell:invite.invalid')));
    return () => {
      cancelled = true;
    };
    // Follow the link once per code; signing in afterwards must not follow it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code]);

  return (
    <main className="shell-centered">
      {error ? (
        <div role="alert">
          <p>{error}</p>
          <Link to={signedIn ? '/' : '/login'}>{signedIn ? t('invite.toChats') : t('invite.toSignIn')}</Link>
        </div>
      ) : (
        <p role="status">{t('invite.opening')}</p>
      )}
    </main>
  );
}
