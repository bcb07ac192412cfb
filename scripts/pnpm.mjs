// Runs the workspace's pinned pnpm through npx, so a machine with only Node and npm can use it.
import { pnpm } from './lib.mjs';

pnpm(process.argv.slice(2)).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
