import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two test files at a time: many wait on child processes (the CLI, chromium), so this
    // machine's two cores stay busy (~4 min instead of ~5.5).
    maxWorkers: 2,
    globalSetup: ["test/setup/require-chromium.ts"],
  },
});
