import { Compile } from 'typebox/compile';
import { ChatClientFrame, type SendFrame as SendFrameSchema, type ForwardFrame, type chatServerFrames } from '@messenger/protocol';
import type { Static } from 'typebox';

// The chat socket's frames are the wire contract's (packages/protocol, chat-socket.ts); checked here, compiled once.
export type ClientFrame = Static<typeof ChatClientFrame>;
export type SendFrame = Static<typeof SendFrameSchema> | Static<typeof ForwardFrame>;

export const clientFrame = Compile(ChatClientFrame);
/** A refusal on the chat socket, as the contract says it. */
export type ChatRefusal = Static<(typeof chatServerFrames)['error']>;
