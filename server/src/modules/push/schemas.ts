// The push routes' wire shapes live in the shared contract (packages/protocol), the client's as well.
export { SubscribeBody, UnsubscribeBody, pushRoutes } from '@messenger/protocol';
