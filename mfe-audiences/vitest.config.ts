import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}', '../packages/ui/src/**/*.test.{ts,tsx}'],
    // Fluent UI and the routes render sizeable trees; jsdom on two cores needs more than the default 5 s.
    testTimeout: 20000,
  },
});
