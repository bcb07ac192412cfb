// The users routes' wire shapes live in the shared contract (packages/protocol), the client's as well.
export {
  BlockUserBody,
  EditUserBody,
  FindUserQuery,
  LinkQuery,
  PhoneBody,
  USERNAME_PATTERN,
  VerifyPhoneBody,
  chatRoutes,
  userRoutes,
} from '@messenger/protocol';
