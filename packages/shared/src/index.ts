// The public face of @messenger/shared. Always import it by this name: a relative path or alias into its
// source would create a second instance of every store (see docs/adding-a-remote.md).
export * from './config';
export * from './model/types';
export * from './model/events';
export { ApiClient, api, type Query, type RequestOptions } from './api/client';
export { ApiError } from './api/errors';
export * from './api/endpoints';
export { cookies } from './storage/cookies';
export { tokenStorage, msUntilExpiry } from './storage/tokens';
export { localSettings } from './storage/local';
export { drafts, useDraftText } from './storage/drafts';
export { Emitter } from './events/emitter';
export { eventBus, type BusEvents, type ConnectionStatus } from './events/bus';
export { FlowClient, type FlowClientOptions } from './events/flow-client';
export { ChatSocket, type ChatSocketOptions, type OutgoingMessage } from './events/chat-socket';
export { useAuthStore, type AuthState } from './stores/auth';
export { useSettingsStore, type SettingsState } from './stores/settings';
export { useSearchStore, type SearchState } from './stores/search';
export { useConnectionStore } from './stores/connection';
export { useTypingStore, TYPING_SHOWN_MS, type Typist } from './stores/typing';
export { usePresenceStore } from './stores/presence';
export { useUsersStore, type UsersState } from './stores/users';
export { useContactsStore, type ContactsState } from './stores/contacts';
export { useNotificationsStore, type NotificationItem, type NotificationKind, type NotificationsState } from './stores/notifications';
export { useChatsStore, sortChats, isListed, type ChatsState } from './stores/chats';
// Names that fall back to a phone number are computed again, formatted, when the phone rules arrive.
import './stores/phone-names';
export { useCallStore, meetingPath, type ActiveCall, type CallNotice, type CallNoticeKind, type CallState, type IncomingCall } from './stores/call';
export { hangUpCall, meetingSocketUrl } from './services/calls';
export { takeMeetingHeadStart, discardMeetingHeadStart, type MeetingHeadStart } from './calls/meeting-head-start';
export { MeetingConnection, type MeetingEnd, type MeetingHandlers, type OutgoingMedia } from './calls/meeting-connection';
export { markCallStage, type CallStage } from './calls/stages';
export { useMessagesStore, type ChatThread, type MessagesState } from './stores/messages';
export { startSession, beginSession, stopSession, signOut, watchSessionCookies } from './services/session';
export { usePushStore, syncPush, type PushStatus } from './services/push';
export { sendMessage, sendText, notifyTyping, forwardMessage, retrySend, discardUnsent, restoreOutbox, type NewMessage } from './services/messaging';
export { uploadFile, uploadLimitMb, type UploadOptions } from './api/upload';
export { mediaToken, mediaUrl } from './api/media';
export { useMediaUrl } from './ui/useMediaUrl';
export { newClientId } from './services/client-id';
export { displayName, type Nameable } from './rules/display-name';
export { avatarPlaceholder, AVATAR_GRADIENTS } from './rules/avatar';
export { normalizeSearch, matchesSearch, filterContacts } from './rules/search';
export { formatListTime, formatDetailedTime, formatMessageTime } from './rules/time';
export { formatCallDuration, unansweredCall, type UnansweredCall } from './rules/calls';
export {
  sanitizePhoneInput,
  formatPhoneAsYouType,
  toE164,
  countryOf,
  countryOptions,
  guessCountry,
  formatPhone,
  loadPhoneRules,
  loadPhoneValidation,
  usePhoneFormatter,
  usePhoneRules,
  usePhoneValidation,
  type CountryCode,
} from './rules/phone';
export { ServerStrings, SERVER_STRING_KEYS, ERROR_CODE_KEYS } from './rules/server-strings';
export { formatByteSize } from './rules/bytes';
export { i18n, addTranslations, errorText, translationsBackend, translationNamespaces, translationsReady, loadTranslations, type LoadTranslations } from './i18n';
export { chatDisplay, type ChatDisplay } from './rules/chat-display';
export { Avatar } from './ui/Avatar';
export { Modal } from './ui/Modal';
export { useModalStack } from './ui/modal-stack';
export { moveFocusByArrows, type ArrowAxis } from './ui/roving-focus';
export { Shortcuts, isTextEntry, matchesShortcut, modalOpen, shortcutKeys, type Shortcut } from './ui/shortcuts';
export { ConfirmDialog } from './ui/ConfirmDialog';
export { FormError, useSubmit, type Submit } from './ui/use-submit';
export { PhoneField } from './ui/PhoneField';
export { cleanUsername, isValidUsername } from './rules/username';
export { characterCount, clampCharacters } from './rules/text';
export { canEdit, EDIT_WINDOW_MS } from './rules/edit';
export { REACTIONS, reactionName } from './rules/reactions';
export {
  acquireMicrophone,
  acquireCallMedia,
  acquireCamera,
  acquireScreen,
  releaseStream,
  MediaAccessError,
  MICROPHONE_CONSTRAINTS,
  CAMERA_CONSTRAINTS,
  VOICE_MIME,
  VOICE_BITS_PER_SECOND,
} from './media/devices';
export { useTemporaryLoginStore, unlessGuest } from './stores/temporary-login';
export { TemporaryLoginModal } from './ui/TemporaryLoginModal';
export { Icon, type IconName } from './ui/Icon';
export { LanguageSelect, LANGUAGE_NAMES } from './ui/LanguageSelect';
export { useBottomInset, BOTTOM_INSET_VARIABLE } from './ui/useBottomInset';
