// HAProxy's configuration for a cluster of our nodes on one machine: `npm run cluster` and the node-loss test
// (server/test/node-loss.test.ts) use the same one.
//
// WebSockets pass through HTTP mode as upgraded tunnels (`timeout tunnel`); a node that fails /api/health twice
// (its database or NATS gone) gets no new requests until it passes twice. A connection refused by a node that died
// before its health checks noticed is tried again on another (`retries` + `option redispatch`), so a client
// reconnecting after a node's loss gets a live node at once rather than errors for the checks' two seconds.
// The development SMS outbox (`/api/dev/`, every node's holds every code: the nodes share it over NATS) answers only
// to this machine and refuses proxied requests (X-Forwarded-For): the balancer listens on loopback only, so it
// reads the outbox through a backend that forwards as this machine, without the header (the first node while it
// is up). No global maxconn: HAProxy sizes it from the file-descriptor limit it is given.

/**
 * @param {{ port: number, nodes: Array<{ id: string, port: number }> }} cluster
 * @returns {string}
 */
export function haproxyConfig({ port, nodes }) {
  return `
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  timeout http-request 10s
  retries 3
  option redispatch

frontend messenger
  bind 127.0.0.1:${port}
  acl dev_sms path_beg /api/dev/
  use_backend first_node if dev_sms
  default_backend nodes

backend nodes
  option forwardfor
  balance leastconn
  option httpchk GET /api/health
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
${nodes.map((node) => `  server ${node.id} 127.0.0.1:${node.port} check`).join('\n')}

backend first_node
  option httpchk GET /api/health
  default-server inter 1s fall 2 rise 2
${nodes.map((node, index) => `  server ${node.id} 127.0.0.1:${node.port} check${index > 0 ? ' backup' : ''}`).join('\n')}
`;
}
