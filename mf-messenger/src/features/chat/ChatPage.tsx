import { useEffect, useLayoutEffect, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, chatsApi, errorText, useAuthStore, useChatsStore, useBottomInset, useUsersStore, type Chat } from '@messenger/shared';
import { ObserverContext } from './observer';
import { ChatHeader } from './header/ChatHeader';
import { MessageList } from './messages/MessageList';
import { Composer } from './composer/Composer';
import { ChatSearch } from './search/ChatSearch';
import { DeleteMessageDialog } from './actions/DeleteMessageDialog';
import { ForwardDialog } from './actions/ForwardDialog';
import { ReadersDialog } from './actions/ReadersDialog';
import { useChatUiStore } from './chatUiStore';
import { stopVoicePlayback } from './messages/voicePlayback';
import { useUploadsStore } from './composer/uploadsStore';
import { GroupPanel } from '../groups/GroupPanel';
import { PersonPanel } from '../people/PersonPanel';

/**
 * `/{chat_id}`: the open chat. While it is on screen it is the active chat — its messages count as read — and
 * opening it marks it read on the server. Files dropped anywhere on it are uploaded and sent.
 */
export function ChatPage({ chatId }: { chatId: number }) {
  const { t } = useTranslation('messenger');
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const own = useChatsStore((state) => state.chats.find((candidate) => candidate.id === chatId));
  // A secret chat an admin reads without being in it stays out of their own list.
  const [observed, setObserved] = useState<Chat | null>(null);
  const chat = own ?? (observed?.id === chatId ? observed : undefined);
  const observer = chat !== undefined && !chat.participants.includes(me);
  const loaded = useChatsStore((state) => state.loaded);
  const startUpload = useUploadsStore((state) => state.start);
  const [missing, setMissing] = useState<string | null>(null);
  const [panelOpen, setPanelOpen] = useState(false);
  const [searching, setSearching] = useState(false);
  const [query, setQuery] = useState('');
  const [dragging, setDragging] = useState(false);
  const [wasThere, setWasThere] = useState(false);
  const forwarding = useChatUiStore((state) => state.forwarding);
  // A voice message plays on while its row is scrolled out of view, but not once its chat is left.
  useEffect(() => stopVoicePlayback, [chatId]);

  // Esc closes the info panel — unless a dialog is open above it, which takes its own Escape.
  useEffect(() => {
    if (!panelOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.querySelector('dialog[open], [role="dialog"]')) setPanelOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [panelOpen]);

  // In the commit that shows the chat, not after it: a chat switched to by Alt+↓ (a navigation outside React's
  // events, so its effects may wait) is already the one Alt+↑ counts from once its heading is on screen.
  useLayoutEffect(() => {
    useChatsStore.getState().setActive(chatId);
    return () => {
      if (useChatsStore.getState().activeChatId === chatId) useChatsStore.getState().setActive(null);
      useChatUiStore.getState().askDelete(null);
      useChatUiStore.getState().askForward(null);
    };
  }, [chatId]);

  if (chat && !wasThere) setWasThere(true);

  // A chat not (yet) in the list — a link, a fresh chat — is fetched on its own.
  useEffect(() => {
    if (chat || !loaded || wasThere) return;
    let cancelled = false;
    chatsApi
      .get(chatId)
      .then((fetched) => {
        if (cancelled) return;
        if (fetched.participants.includes(me)) useChatsStore.getState().upsert(fetched);
        else setObserved(fetched);
        void useUsersStore.getState().ensure(fetched.participants);
      })
      .catch((error: unknown) => {
        if (!cancelled) setMissing(error instanceof ApiError && error.status === 404 ? t('chat.unavailable') : errorText(error, 'messenger:chat.loadFailed'));
      });
    return () => {
      cancelled = true;
    };
  }, [chat, chatId, loaded, wasThere, me, t]);

  const unread = chat?.unread_messages ?? 0;
  useEffect(() => {
    if (unread > 0 && document.visibilityState === 'visible') void useChatsStore.getState().markRead(chatId).catch(() => undefined);
  }, [chatId, unread]);

  useEffect(() => {
    if (observer) return;
    const onVisible = () => {
      if (document.visibilityState === 'visible') void useChatsStore.getState().markRead(chatId).catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [chatId, observer]);

  // A chat that disappears while open (deleted, left, removed from it) says so instead of vanishing.
  if (missing || (wasThere && !chat)) {
    return (
      <div className="msg-chat-missing" role="alert">
        <p>{missing ?? t('chat.unavailable')}</p>
      </div>
    );
  }
  if (!chat) return <p className="ui-empty">{t('common:loading')}</p>;

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    for (const file of event.dataTransfer.files) void startUpload(chat.id, file);
  };

  return (
    <ObserverContext.Provider value={observer}>
      <div className="msg-chat-page">
        <section
          className="msg-chat"
          aria-labelledby="chat-title"
          onDragOver={(event) => {
            if (event.dataTransfer.types.includes('Files')) {
              event.preventDefault();
              setDragging(true);
            }
          }}
          onDragLeave={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node)) setDragging(false);
          }}
          onDrop={observer ? undefined : onDrop}
        >
          <ChatHeader
            chat={chat}
            panelOpen={panelOpen}
            onTogglePanel={() => setPanelOpen((open) => !open)}
            searching={searching}
            onToggleSearch={() => {
              setSearching((open) => !open);
              setQuery('');
            }}
          />
          {searching && (
            <ChatSearch
              chatId={chat.id}
              query={query}
              onQuery={setQuery}
              onClose={() => {
                setSearching(false);
                setQuery('');
              }}
            />
          )}
          <MessageList chat={chat} highlight={searching ? query : undefined} />
          <DeleteMessageDialog chat={chat} />
          <ReadersDialog chat={chat} />
          {forwarding && forwarding.message.chat_id === chat.id && (
            <ForwardDialog message={forwarding.message} authorName={forwarding.authorName} onClose={() => useChatUiStore.getState().askForward(null)} />
          )}
          {observer ? (
            <ObserverNote text={t('chat.observer')} />
          ) : (
            <Composer chatId={chat.id} />
          )}
          {dragging && (
            <div className="msg-drop-zone" aria-hidden="true">
              {t('chat.dropFiles')}
            </div>
          )}
        </section>
        {panelOpen &&
          (chat.chat_type === 'group' ? (
            <GroupPanel chat={chat} onClose={() => setPanelOpen(false)} />
          ) : (
            <PersonPanel chat={chat} onClose={() => setPanelOpen(false)} />
          ))}
      </div>
    </ObserverContext.Provider>
  );
}

/** Shown instead of the composer to an admin reading a chat they are not in; toasts float above it too. */
function ObserverNote({ text }: { text: string }) {
  const note = useRef<HTMLParagraphElement>(null);
  useBottomInset(note);
  return (
    <p className="msg-observer-note" role="note" ref={note}>
      {text}
    </p>
  );
}
