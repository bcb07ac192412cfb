// docs/protocol.md against the wire contract (packages/protocol): every live event, signal and control frame of
// `/user/flow` and every frame of the chat and meeting sockets is documented, and the docs name no event the
// contract lacks.
// The payloads themselves are checked on every socket frame of the server's tests (helpers/client.ts SocketProbe).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Value from 'typebox/value';
import {
  ChatClientFrame,
  FLOW_EVENT_TYPES,
  MeetingEnvelope,
  chatServerFrames,
  flowControl,
  flowSignals,
  meetingClientFrames,
  meetingFrameSchema,
  meetingServerFrames,
  type MeetingSender,
} from '@messenger/protocol';

const docs = readFileSync(new URL('../../docs/protocol.md', import.meta.url), 'utf8');

/** The section of the docs under the heading that starts with `title`, up to the next heading of its level. */
function section(title: string): string {
  const start = docs.indexOf(`\n## ${title}`);
  assert.notEqual(start, -1, `docs/protocol.md has a section "${title}"`);
  const end = docs.indexOf('\n## ', start + 1);
  return docs.slice(start, end === -1 ? undefined : end);
}

/** The backticked names in the first cell of each row of the table whose header starts with `header`. */
function firstColumn(text: string, header: string): string[] {
  const lines = text.split('\n');
  const top = lines.findIndex((line) => line.startsWith(header));
  assert.notEqual(top, -1, `a table headed "${header}"`);
  const rows = [];
  for (const line of lines.slice(top + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/** The lines of the first ```json block after the line `intro` in `text`. */
function jsonBlockAfter(text: string, intro: string): string[] {
  const at = text.indexOf(`\n${intro}\n`);
  assert.notEqual(at, -1, `a paragraph "${intro}"`);
  const start = text.indexOf('```json\n', at);
  assert.notEqual(start, -1, `a json block after "${intro}"`);
  const end = text.indexOf('\n```', start + 1);
  return text.slice(start + '```json\n'.length, end).split('\n');
}

describe('docs/protocol.md and the wire contract', () => {
  const flow = section('`/api/user/flow');
  const chat = section('`/api/chat/socket');
  const meeting = section('`/api/meet/room');

  it('documents every live event of the log, and no other', () => {
    const documented = firstColumn(flow, '| `event_type` | to |');
    assert.deepEqual([...new Set(documented)].sort(), [...FLOW_EVENT_TYPES].sort());
  });

  it('shows every control frame and live signal of /user/flow', () => {
    for (const type of [...Object.keys(flowControl), ...Object.keys(flowSignals)]) {
      assert.ok(flow.includes(`{"event_type":"${type}","additional_info":`), `the ${type} frame is shown`);
    }
  });

  it('shows every frame of the chat socket, both ways', () => {
    const clientTypes = new Set(ChatClientFrame.anyOf.map((frame) => String(frame.properties.type.const)));
    for (const type of clientTypes) assert.match(chat, new RegExp(`\\{ "type": "${type}"`), `the client's ${type} frame is shown`);
    for (const type of Object.keys(chatServerFrames)) assert.match(chat, new RegExp(`\\{ ?"type": "${type}"`), `the server's ${type} frame is shown`);
  });

  it('shows every frame of the meeting socket, both ways, each as the contract has it', () => {
    const directions: Array<[MeetingSender, string, object]> = [
      ['client', 'Client to server:', meetingClientFrames],
      ['server', 'Server to client:', meetingServerFrames],
    ];
    for (const [from, intro, table] of directions) {
      const shown = new Set<string>();
      for (const line of jsonBlockAfter(meeting, intro)) {
        const frame = JSON.parse(line);
        assert.ok(Value.Check(MeetingEnvelope, frame), `${line} is {event, data}, both text`);
        const schema = meetingFrameSchema(frame, from);
        assert.ok(schema, `the ${from}'s ${frame.event} frame is the contract's`);
        assert.ok(Value.Check(schema, JSON.parse(frame.data)), `the ${from}'s ${frame.event} frame shows data the contract allows: ${line}`);
        shown.add(frame.event);
      }
      assert.deepEqual([...shown].sort(), Object.keys(table).sort(), `every ${from} frame is shown`);
    }
  });
});
