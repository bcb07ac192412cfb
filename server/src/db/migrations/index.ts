import { initial } from './001-initial.js';
import { groupsFiles } from './002-groups-files.js';
import { staff } from './003-staff.js';
import { calls } from './004-calls.js';
import { writePath } from './005-write-path.js';
import { sessionsPhones } from './006-sessions-phones.js';
import { clusterNodes } from './007-cluster-nodes.js';
import { messageEdits } from './008-message-edits.js';
import { reactions } from './009-reactions.js';
import { presence } from './010-presence.js';
import { mentions } from './011-mentions.js';
import { readFrom } from './012-read-from.js';
import { push } from './013-push.js';
import { chatRemovals } from './014-chat-removals.js';

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

/** Every migration ever shipped, oldest first. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [initial, groupsFiles, staff, calls, writePath, sessionsPhones, clusterNodes, messageEdits, reactions, presence, mentions, readFrom, push, chatRemovals];
