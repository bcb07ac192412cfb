// The chats routes' wire shapes live in the shared contract (packages/protocol), the client's as well.
export {
  CreateChatBody,
  EditChatBody,
  FindChatsQuery,
  HistoryQuery,
  IntervalBody,
  JoinChatBody,
  ManageParticipantsBody,
  NotificationsBody,
  ReadQuery,
  SearchQuery,
  chatRoutes,
} from '@messenger/protocol';
