import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/index.js';
import { buildApp } from './app.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const opening = performance.now();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const databaseSeconds = (performance.now() - opening) / 1000;
  const app = await buildApp(config, db);
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  const url = `http://localhost:${config.port}`;
  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  // Seconds since the process started (Node's time origin), so a slow start or restart shows where it went.
  const startedIn = (performance.now() / 1000).toFixed(2);
  app.log.info(`Messenger is running at ${url} with ${database} (started in ${startedIn} s, the database ${databaseSeconds.toFixed(2)} s of it)`);
  if (app.services.devSms) {
    app.log.info(
      `Sign-in codes (dev SMS provider): printed in this log as "[dev sms]" lines, and at ${url}/api/dev/sms?phone=<E.164 number>`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
