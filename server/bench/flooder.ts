// A hostile client for the flood benchmark, in its own process so that its own work does not slow the server the
// benchmark measures: it sends valid messages at a fixed rate without waiting for answers, and reconnects whenever
// it is cut off. Prints what happened as one JSON line. Settings come from the environment (see delivery.bench.ts).
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';

const url = process.env.FLOOD_URL!;
const chatId = Number(process.env.FLOOD_CHAT_ID);
const rate = Number(process.env.FLOOD_RATE);
const seconds = Number(process.env.FLOOD_SECONDS);

const counts = { sent: 0, stored: 0, refused: 0, cutOff: 0, refusedConnections: 0 };
let endAt = Infinity;
const perMillisecond = rate / 1000;

function connect(): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (req) => {
      req.destroy();
      counts.refusedConnections += 1;
      resolve(null);
    });
    socket.once('error', () => resolve(null));
  });
}

while (performance.now() < endAt) {
  const socket = await connect();
  if (!socket && endAt === Infinity) throw new Error('the flooder could not connect at all');
  if (!socket) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    continue;
  }
  if (endAt === Infinity) {
    // The clock starts with the first connection; the benchmark starts measuring when it reads this line.
    endAt = performance.now() + seconds * 1000;
    console.log('started');
  }
  let open = true;
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if (frame.type === 'ack') counts.stored += 1;
    else if (frame.error === 'rate_limited') counts.refused += 1;
  });
  socket.on('close', (code) => {
    open = false;
    if (code === 4029) counts.cutOff += 1;
  });
  let owed = 0;
  let last = performance.now();
  while (open && performance.now() < endAt) {
    const now = performance.now();
    owed += (now - last) * perMillisecond;
    last = now;
    for (; owed >= 1; owed -= 1) {
      socket.send(JSON.stringify({ type: 'send', client_id: randomUUID(), chat_id: chatId, text: `flood ${counts.sent}` }));
      counts.sent += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  socket.terminate();
}
console.log(JSON.stringify(counts));
