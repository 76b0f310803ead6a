import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // jsdom with the fetch classes (AbortSignal, FormData, Blob...) Node's fetch accepts.
    environment: fileURLToPath(import.meta.resolve('@mailroom/mf-contract/vitest-environment')),
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Fluent UI and the routes render sizeable trees; jsdom on two cores needs more than the default 5 s.
    testTimeout: 20000,
  },
});
