// The wire contract: what server and client both say about every request, answer and limit, said once.
export { AUTO_DELETE_INTERVALS, CHAT_JOIN_CODE_PATTERN, GENERATED_PASSWORD, LANGUAGES, MESSAGE_EVENT_TYPES, REACTION_EMOJI, limits } from './limits.js';
export { ServerStrings } from './strings.js';
export { Deleted, Id, IdParams, Int, InviteCode, Nullable, PasswordText, Phone, SIGN_IN_CODE_PATTERN, USERNAME_PATTERN, UsernameChange } from './common.js';
export { SendCodeAnswer, SendCodeBody, SignInBody, SignInManagerBody, SignInManagerExtraBody, SignInQuery, authRoutes } from './auth.js';
export { SubscribeBody, UnsubscribeBody, pushRoutes } from './push.js';
export {
  CallChatBody,
  CallChatQuery,
  CallInfo,
  CallRecord,
  IceServer,
  MeetingTicket,
  RecordingBody,
  RecordingQuery,
  callRoutes,
} from './calls.js';
export {
  CallEndReason,
  CallStatus,
  Chat,
  ChatList,
  ChatMetadata,
  ChatType,
  CreateChatBody,
  EditChatBody,
  FindChatsQuery,
  HistoryPage,
  HistoryQuery,
  IntervalBody,
  JoinChatBody,
  LinkAnswer,
  LinkQuery,
  ManageParticipantsBody,
  Message,
  MessageMeta,
  MessageType,
  NotificationsBody,
  Reaction,
  ReadQuery,
  ReplySnapshot,
  SearchQuery,
  chatRoutes,
} from './chats.js';
export { AddContactBody, AddContactResponse, Contact, EditContactBody, contactRoutes } from './contacts.js';
export { FILE_TREE_LIMIT, FileInfo, FileTree, FileTreeEntry, MeetAudioQuery, TokensBody, TreeQuery, fileRoutes } from './files.js';
export {
  BlockUserBody,
  EditUserBody,
  FindUserQuery,
  JwtInfo,
  LastSeenPrivacy,
  Me,
  PhoneBody,
  Presence,
  PublicUser,
  VerifyPhoneBody,
  userRoutes,
} from './users.js';
export { DeleteMessageQuery, EditMessageBody, ReactionBody, messageRoutes } from './messages.js';
export {
  CreateManagerBody,
  Credentials,
  EditManagerBody,
  Employee,
  EmployeesQuery,
  MuteBody,
  OwnPasswordBody,
  RoleBody,
  staffRoutes,
} from './staff.js';
export { ManagerStats, StatsQuery, TotalStats, statsRoutes } from './stats.js';
export {
  FLOW_EVENT_TYPES,
  flowControl,
  flowEvents,
  flowFrameSchema,
  flowSignals,
  type FlowControlMap,
  type FlowEvent,
  type FlowEventMap,
  type FlowEventType,
  type FlowSignal,
  type FlowSignalMap,
  type TypingSignalInfo,
} from './live.js';
export {
  ChatClientFrame,
  ForwardFrame,
  HangFrame,
  SendFrame,
  SendMeta,
  SendableType,
  TypingFrame,
  chatServerFrameSchema,
  chatServerFrames,
  type ChatServerFrame,
  type OutgoingMessage,
} from './chat-socket.js';
export { mismatches } from './check.js';
export { contractRoutes, successStatuses, type Answer, type ContractRoute } from './routes.js';
export type { Static, TSchema } from 'typebox';
export {
  MeetingCandidate,
  MeetingClientFrame,
  MeetingEnvelope,
  meetingClientFrames,
  meetingFrameSchema,
  meetingServerFrames,
  type MeetingClientDataMap,
  type MeetingClientEvent,
  type MeetingSender,
  type MeetingServerDataMap,
  type MeetingServerEvent,
  type MeetingServerFrame,
} from './meeting-socket.js';
