import { Navigate, useParams } from '@messenger/router';
import { RemoteSlot } from '../remotes/RemoteSlot';
import { Remotes } from '../remotes/registry';

/** `/{chat_id}`: the messenger remote's chat view. Anything that is not a chat id goes home. */
export function ChatRoute() {
  const { chatId } = useParams();
  const id = Number(chatId);
  if (!Number.isSafeInteger(id) || id <= 0) return <Navigate to="/" replace />;
  return <RemoteSlot key={id} remote={Remotes.messenger} module="ChatPage" props={{ chatId: id }} />;
}
