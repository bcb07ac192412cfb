// Jest settings of every client app: jsdom, TypeScript through swc, CSS and media imports as stubs.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

// Every unit test runs in the same time zone wherever it runs, and in one whose clocks change (so rules of dates
// are checked across a change). Set here, in the process that loads the configs, before its workers start: a test
// cannot set it for itself (Jest gives each test file a copy of process.env).
process.env.TZ = 'Europe/Berlin';

export function jestConfig(dir, displayName) {
  return {
    displayName,
    rootDir: dir,
    testEnvironment: 'jsdom',
    testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
    transform: {
      '^.+\\.[cm]?[tj]sx?$': [
        '@swc/jest',
        {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            target: 'es2022',
            transform: { react: { runtime: 'automatic' } },
          },
        },
      ],
    },
    // TypeBox (the wire contract's schemas) ships only as ES modules: compiled like our own code.
    transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/typebox@[^/]+/node_modules/)?typebox/)'],
    moduleNameMapper: {
      // The contract package (packages/protocol) imports its files as `./x.js`, as Node's ES modules need.
      '^(\\.{1,2}/.*)\\.js$': '$1',
      '\\.css$': join(here, 'jest', 'style-stub.cjs'),
      '\\.(png|svg|jpe?g|webp|wav|mp3|ogg)$': join(here, 'jest', 'file-stub.cjs'),
    },
    setupFilesAfterEnv: [join(here, 'jest', 'setup.cjs')],
    clearMocks: true,
  };
}
