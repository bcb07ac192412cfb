import { useEffect } from 'react';
import {
  chatDisplay,
  config,
  displayName,
  errorText,
  useAuthStore,
  useCallStore,
  useChatsStore,
  useContactsStore,
  useNotificationsStore,
  useUsersStore,
  type ActiveCall,
  type IncomingCall,
  type PublicUser,
} from '@messenger/shared';
import { CallWindow } from '../call-window/CallWindow';
import { callNotice } from '../call-window/CallNotice';
import type { CallViewState, RemoteParticipant } from '../call-window/types';
import { IncomingCallModal } from '../incoming/IncomingCallModal';
import { useCallSession } from './useCallSession';

function isSmallScreen(): boolean {
  return typeof window !== 'undefined' && window.innerWidth <= config.mobileBreakpointPx;
}

/** A person's name as I know them: my contact's name for them, else their profile's. */
function usePersonName(): (userId: number, known?: PublicUser) => { name: string; avatar: string | null } {
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  return (userId, known) => {
    const contact = contacts.find((candidate) => candidate.id === userId);
    const profile = profiles[userId];
    return { name: displayName(contact, profile, known), avatar: profile?.avatar ?? known?.avatar ?? null };
  };
}

function useChatTitle(chatId: number): { title: string; avatar: string | null; chatType: 'private' | 'group' } {
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const chat = useChatsStore((state) => state.chats.find((candidate) => candidate.id === chatId));
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  if (!chat) return { title: '', avatar: null, chatType: 'private' };
  const display = chatDisplay(chat, me, contacts, profiles);
  return { title: display.name, avatar: display.avatar, chatType: chat.chat_type === 'private' ? 'private' : 'group' };
}

function ActiveCallWindow({ active }: { active: ActiveCall }) {
  const { snapshot, controls } = useCallSession(active);
  const { title, chatType } = useChatTitle(active.chatId);
  const person = usePersonName();
  const ensureProfiles = useUsersStore((state) => state.ensure);
  const remoteIds = snapshot?.remotes.map((remote) => remote.userId) ?? [];
  const remoteKey = remoteIds.join(',');
  useEffect(() => {
    if (remoteIds.length > 0) void ensureProfiles(remoteIds);
    // remoteKey stands for the ids
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [remoteKey, ensureProfiles]);

  const remotes: RemoteParticipant[] = (snapshot?.remotes ?? []).map((remote) => ({ ...remote, ...person(remote.userId) }));
  const state: CallViewState = {
    title,
    chatType,
    phase: snapshot?.phase ?? (active.outgoing ? 'ringing' : 'connecting'),
    connectedAt: snapshot?.connectedAt ?? null,
    participantCount: remotes.length + 1,
    remotes,
    localStream: snapshot?.localStream ?? null,
    localAudioLevel: snapshot?.localAudioLevel ?? 0,
    muted: snapshot?.muted ?? false,
    cameraOn: snapshot?.cameraOn ?? false,
    screenSharing: snapshot?.screenSharing ?? false,
    recorded: snapshot?.recorded ?? false,
    canShareScreen: !isSmallScreen() && typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getDisplayMedia,
  };
  return <CallWindow state={state} actions={controls} initiallyMaximized={isSmallScreen()} />;
}

function Incoming({ incoming }: { incoming: IncomingCall }) {
  const soundEnabled = useAuthStore((state) => state.user?.sound_notifications ?? false);
  const { title, avatar, chatType } = useChatTitle(incoming.chatId);
  const person = usePersonName();
  const caller = person(incoming.caller.id, incoming.caller);
  const call = {
    chatId: incoming.chatId,
    title: title || caller.name,
    avatar: avatar ?? caller.avatar,
    chatType: incoming.chatType ?? chatType,
    callerName: caller.name,
  };
  const store = useCallStore.getState();
  return (
    <IncomingCallModal
      call={call}
      soundEnabled={soundEnabled}
      onAccept={() => store.acceptIncoming()}
      onReject={() =>
        void store
          .rejectIncoming()
          .catch((error: unknown) =>
            useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'calls:incoming.rejectFailed') }),
          )
      }
      onTimeout={() => store.dismissIncoming()}
    />
  );
}

/**
 * Everything about calls that floats over the app (mounted once by the shell): the call window of this tab's
 * call, the incoming call modal when no call window is open, and the call notices of spec §4 and §8.
 */
export function CallLayer() {
  const active = useCallStore((state) => state.active);
  const incoming = useCallStore((state) => state.incoming);
  const notice = useCallStore((state) => state.notice);

  useEffect(() => {
    if (!notice) return;
    if (notice.kind !== 'failed') callNotice(notice.kind, notice.detail);
    useCallStore.getState().clearNotice();
  }, [notice]);

  if (active) return <ActiveCallWindow key={active.callId} active={active} />;
  if (incoming) return <Incoming key={incoming.callId} incoming={incoming} />;
  return null;
}
