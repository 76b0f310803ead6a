import { defineConfig } from 'vitest/config';
import { OPERATION_LOG_PATH } from './test/support/operation-log.js';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'dev/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two test files at a time, each in its own process and database.
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    minWorkers: 1,
    globalSetup: ['test/support/global-setup.ts'],
    env: {
      MAILROOM_OPERATION_LOG: OPERATION_LOG_PATH,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    },
  },
});
