// History pages of a very long chat: the newest, a middle and an old page of a 1 000 000-message chat, read by key
// (`before_id`, what our client uses) and by the spec's `page_num` (an offset), on both databases. Figures, not
// pass/fail: server-side time (Fastify's inject, no network), p50 and p99 over repeated reads.
import { startServer, type TestServer } from '../test/helpers/server.js';
import { privateChat, signUp } from '../test/helpers/client.js';
import { postgresReachable } from './reachable.js';

const MESSAGES = Number(process.env.HISTORY_MESSAGES ?? 1_000_000);
const READS = 1_000;
/** Deep offset pages cost a second each: fewer reads give their median without minutes of waiting. */
const OFFSET_READS = 30;
const PAGE = 50;

function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

async function bench(database: 'pglite' | 'postgres'): Promise<void> {
  process.env.TEST_DATABASE = database;
  const server: TestServer = await startServer({}, { onDisk: true });
  try {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const seeded = performance.now();
    // Seeded in the database directly (as a chat grows over years), in slices so the embedded one keeps up.
    const slice = 100_000;
    for (let from = 1; from <= MESSAGES; from += slice) {
      await server.db.query(
        `INSERT INTO messages (chat_id, sender_id, client_id, type, text, created_at)
         SELECT $1, CASE WHEN g % 2 = 0 THEN $2::bigint ELSE $3::bigint END, gen_random_uuid(), 'text', 'message ' || g,
                now() - make_interval(secs => $5::integer - g)
           FROM generate_series($4::integer, $4::integer + $6::integer - 1) AS g`,
        [chatId, anna.id, boris.id, from, MESSAGES, Math.min(slice, MESSAGES - from + 1)],
      );
    }
    await server.db.query('ANALYZE messages');
    const seedSeconds = (performance.now() - seeded) / 1000;
    const [bounds] = await server.db.query<{ low: number; high: number }>('SELECT min(id) AS low, max(id) AS high FROM messages WHERE chat_id = $1', [
      chatId,
    ]);
    const { low, high } = bounds!;
    const read = async (query: string): Promise<number> => {
      const started = performance.now();
      const response = await server.app.inject({ method: 'GET', url: `/api/chat/history?chat_id=${chatId}&page_size=${PAGE}&${query}`, headers: { authorization: `Bearer ${anna.token}` } });
      const took = performance.now() - started;
      if (response.statusCode !== 200 || JSON.parse(response.body).messages.length !== PAGE) throw new Error(`history ${query}: ${response.statusCode}`);
      return took;
    };
    const measure = async (query: () => string, reads = READS): Promise<string> => {
      for (let i = 0; i < 20; i += 1) await read(query()); // warm
      const samples: number[] = [];
      for (let i = 0; i < reads; i += 1) samples.push(await read(query()));
      return percentiles(samples);
    };
    const around = (id: number) => () => `before_id=${id + Math.floor(Math.random() * 1000)}`;
    const pages = Math.floor(MESSAGES / PAGE);
    console.log(`\n${database}: a chat of ${MESSAGES.toLocaleString('en')} messages (seeded in ${seedSeconds.toFixed(0)} s), pages of ${PAGE}`);
    console.log(`  by key   — newest page:      ${await measure(() => `before_id=${high + 1}`)}`);
    console.log(`  by key   — a middle page:    ${await measure(around(low + Math.floor((high - low) / 2)))}`);
    console.log(`  by key   — an old page:      ${await measure(around(low + 2 * PAGE))}`);
    console.log(`  page_num — newest page (1):  ${await measure(() => 'page_num=1')}`);
    console.log(`  page_num — middle (${Math.floor(pages / 2)}): ${await measure(() => `page_num=${Math.floor(pages / 2)}`, OFFSET_READS)}`);
    console.log(`  page_num — old (${pages - 2}):   ${await measure(() => `page_num=${pages - 2}`, OFFSET_READS)}`);
  } finally {
    await server.close();
  }
}


process.env.TEST_POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
await bench('pglite');
if (await postgresReachable(process.env.TEST_POSTGRES_URL)) await bench('postgres');
else console.log('\npostgres: skipped (nothing reachable; set DATABASE_URL)');
