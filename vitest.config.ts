import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Each worker loads the application's modules once for all its files (about 1.5 s a file saved):
    // every file builds its own container and database, and src/ keeps no module-level state but
    // pure caches (docs/architecture.md, Tests).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
