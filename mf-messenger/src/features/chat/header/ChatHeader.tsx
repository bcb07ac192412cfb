import { useEffect, useState } from 'react';
import { Link, useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  ConfirmDialog,
  Icon,
  Role,
  callsApi,
  chatDisplay,
  chatsApi,
  errorText,
  useAuthStore,
  useCallStore,
  useChatsStore,
  useContactsStore,
  useNotificationsStore,
  useUsersStore,
  type Chat,
} from '@messenger/shared';
import { AutoDeleteDialog, intervalLabel } from './AutoDeleteDialog';
import { PhoneIcon } from '../CallIcon';
import { useTypingLabel } from './useTypingLabel';
import { usePresenceLabel } from './usePresenceLabel';
import { useAdminChatsStore } from '../../chat-list/adminChatsStore';

interface ChatHeaderProps {
  chat: Chat;
  panelOpen: boolean;
  onTogglePanel: () => void;
  searching: boolean;
  onToggleSearch: () => void;
}

/** A recording dot: filled while calls are recorded, a ring otherwise (hidden from screen readers). */
function RecordIcon({ on }: { on: boolean }) {
  return (
    <svg width={20} height={20} viewBox="0 0 24 24" aria-hidden="true" focusable="false" style={{ flex: 'none', verticalAlign: 'middle' }}>
      <circle cx="12" cy="12" r="7" fill={on ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}

/** Who the chat is with, and its actions: call, call recording (admins), search, auto-delete timer, mute, delete or leave. */
export function ChatHeader({ chat, panelOpen, onTogglePanel, searching, onToggleSearch }: ChatHeaderProps) {
  const { t, i18n } = useTranslation('messenger');
  const navigate = useNavigate();
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const isAdmin = useAuthStore((state) => (state.user?.role ?? 0) >= Role.admin);
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  const { name, avatar, peerId } = chatDisplay(chat, me, contacts, profiles);
  const inCall = useCallStore((state) => state.active !== null);
  const [timerOpen, setTimerOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Whether this chat's calls are recorded, as last loaded or saved (kept per chat, so another chat starts unknown).
  const [recordingState, setRecordingState] = useState<{ chatId: number; recording: boolean } | null>(null);
  const [savingRecording, setSavingRecording] = useState(false);
  const recording = recordingState?.chatId === chat.id ? recordingState.recording : null;
  const isGroup = chat.chat_type === 'group';
  const typing = useTypingLabel(chat.id);
  // Presence is shown for the other person of a private chat (an observer sees none).
  const presence = usePresenceLabel(!isGroup && chat.participants.includes(me) ? peerId : null);
  const observer = !chat.participants.includes(me);
  const leaving = isGroup && chat.owner_id !== me && !observer;
  // Only members can call (the server refuses others), and nobody calls a deleted person.
  const peerDeleted =
    !isGroup &&
    (peerId === null || profiles[peerId]?.deleted === true || contacts.some((contact) => contact.id === peerId && contact.deleted));
  const canCall = !observer && !peerDeleted;

  const call = async () => {
    try {
      await useCallStore.getState().startCall(chat.id);
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:chat.callFailed') });
    }
  };

  useEffect(() => {
    if (!isAdmin) return;
    let cancelled = false;
    callsApi.recording(chat.id).then(
      (result) => {
        if (!cancelled) setRecordingState({ chatId: chat.id, recording: result.recording });
      },
      (error: unknown) => {
        if (!cancelled) useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:chat.recordingFailed') });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [chat.id, isAdmin]);

  const toggleRecording = async () => {
    if (recording === null) return;
    setSavingRecording(true);
    try {
      const result = await callsApi.setRecording(chat.id, !recording);
      setRecordingState({ chatId: result.chat_id, recording: result.recording });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:chat.recordingFailed') });
    } finally {
      setSavingRecording(false);
    }
  };

  const toggleNotifications = async () => {
    try {
      const result = await chatsApi.setNotifications(chat.id, !chat.notifications);
      useChatsStore.getState().patch(chat.id, { notifications: result.notifications });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:chat.notificationsFailed') });
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    try {
      await chatsApi.remove(chat.id);
      useChatsStore.getState().remove(chat.id);
      useAdminChatsStore.setState((state) => ({ chats: state.chats.filter((candidate) => candidate.id !== chat.id) }));
      navigate('/', { replace: true });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:chat.deleteChatFailed') });
    }
  };

  return (
    <header className="msg-chat-header">
      <Link to="/" className="msg-back" aria-label={t('chat.back')}>
        ‹
      </Link>
      <button type="button" className="msg-chat-identity" aria-expanded={panelOpen} onClick={onTogglePanel} title={t('chat.info', { name })}>
        <Avatar name={name} path={avatar} size={40} group={isGroup} />
        <span className="msg-chat-title">
          <span id="chat-title" className="msg-chat-name" role="heading" aria-level={2}>
            {name}
          </span>
          <span className="msg-chat-subtitle">
            {typing ? (
              <span className="msg-typing">{typing}</span>
            ) : (
              <>
                {isGroup ? t('chat.members', { count: chat.participants.length }) : (presence ?? t('chat.privateChat'))}
                {chat.interval > 0 && ` · ${t('chat.autoDeleteAfter', { interval: intervalLabel(chat.interval, i18n.language) })}`}
              </>
            )}
          </span>
        </span>
      </button>
      {/* A change of the button's text is not announced: who is typing is, from here. */}
      <span role="status" className="visually-hidden">
        {typing ?? ''}
      </span>
      <div className="msg-chat-actions">
        {canCall && (
          <button type="button" className="ui-icon-button" aria-label={t('chat.call')} disabled={inCall} onClick={() => void call()}>
            <PhoneIcon />
          </button>
        )}
        {isAdmin && (
          <button
            type="button"
            className="ui-icon-button"
            aria-label={t('chat.recordCalls')}
            aria-pressed={recording === true}
            disabled={recording === null || savingRecording}
            onClick={() => void toggleRecording()}
          >
            <RecordIcon on={recording === true} />
          </button>
        )}
        <button type="button" className="ui-icon-button" aria-label={t('chat.search')} aria-pressed={searching} onClick={onToggleSearch}>
          <Icon name="search" />
        </button>
        {!observer && (
          <>
            {/* Either person of a private chat sets the timer, in a group only its owner (the server checks too). */}
            {(!isGroup || chat.owner_id === me) && (
              <button type="button" className="ui-icon-button" aria-label={t('chat.autoDelete')} onClick={() => setTimerOpen(true)}>
                <Icon name="timer" />
              </button>
            )}
            <button
              type="button"
              className="ui-icon-button"
              aria-label={chat.notifications ? t('chat.mute') : t('chat.unmute')}
              onClick={() => void toggleNotifications()}
            >
              <Icon name={chat.notifications ? 'bell' : 'bellOff'} />
            </button>
          </>
        )}
        <button type="button" className="ui-icon-button" aria-label={leaving ? t('chat.leaveGroup') : t('chat.deleteChat')} onClick={() => setConfirmDelete(true)}>
          <Icon name="trash" />
        </button>
      </div>
      {timerOpen && <AutoDeleteDialog chat={chat} onClose={() => setTimerOpen(false)} />}
      {confirmDelete && (
        <ConfirmDialog
          title={leaving ? t('chat.leaveGroupTitle') : t('chat.deleteChatTitle')}
          subtitle={leaving ? t('chat.leaveGroupSubtitle', { name }) : t('chat.deleteChatSubtitle', { name })}
          approveLabel={leaving ? t('chat.leaveGroup') : t('chat.deleteChat')}
          danger
          onApprove={() => void remove()}
          onCancel={() => setConfirmDelete(false)}
        />
      )}
    </header>
  );
}
