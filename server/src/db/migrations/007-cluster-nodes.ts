import type { Migration } from './index.js';

/** Issue 11: nodes of a cluster, and which node's SFU holds each call. */
export const clusterNodes: Migration = {
  version: 7,
  name: '007-cluster-nodes',
  statements: [
    // Each node of a cluster says it is alive every few seconds; a node whose word is stale is dead, and the others
    // end its calls (their media died with it). A single node never writes here.
    // `url`: where the other nodes reach it (a meeting socket that arrives elsewhere is forwarded to the room's node).
    `CREATE TABLE cluster_nodes (
       node_id text PRIMARY KEY,
       url text NOT NULL,
       heartbeat_at timestamptz NOT NULL DEFAULT now()
     )`,
    // The node whose SFU holds the call's room; NULL for calls from before (all of one node).
    `ALTER TABLE calls ADD COLUMN node_id text`,
  ],
};
