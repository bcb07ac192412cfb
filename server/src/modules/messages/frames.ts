import { Compile } from 'typebox/compile';
import { ChatClientFrame, type ForwardFrame, type SendFrame, type Static, type chatServerFrames } from '@messenger/protocol';

// The chat socket's frames are the wire contract's (packages/protocol, chat-socket.ts); checked here, compiled once.
export const clientFrame = Compile(ChatClientFrame);

/** A new message or a forward: the frames that store a message. */
export type SendOrForwardFrame = Static<typeof SendFrame> | Static<typeof ForwardFrame>;

/** A refusal on the chat socket, as the contract says it. */
export type ChatRefusal = Static<(typeof chatServerFrames)['error']>;
