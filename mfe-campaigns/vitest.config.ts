import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // jsdom with the fetch classes (AbortSignal, FormData, Blob...) Node's fetch accepts.
    environment: fileURLToPath(import.meta.resolve('@mailroom/mf-contract/vitest-environment')),
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
  },
});
