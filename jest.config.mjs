// `npm test` runs every client app's unit tests in one Jest process; each app also runs alone (`pnpm test` in it).
export default {
  projects: ['<rootDir>/packages/shared', '<rootDir>/shell', '<rootDir>/mf-messenger', '<rootDir>/mf-calls', '<rootDir>/mf-staff'],
};
