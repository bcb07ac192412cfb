// The auth routes' wire shapes live in the shared contract (packages/protocol), the client's as well.
export { SendCodeBody, SignInBody, SignInManagerBody, SignInManagerExtraBody, SignInQuery, authRoutes } from '@messenger/protocol';
