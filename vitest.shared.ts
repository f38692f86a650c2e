import { defineConfig } from "vitest/config";

// Workspace packages export TypeScript sources under the "@petri/source" condition, so tests
// run against source without a prior build.
// Vitest hands ssr.resolve.conditions to Node as --conditions; "import" there would make
// CommonJS packages (pg) load their peers' ESM builds, so keep that list minimal.
const conditions = ["@petri/source", "node", "import", "module", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions: ["@petri/source", "node"], externalConditions: ["@petri/source"] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 90_000,
    pool: "forks",
    maxWorkers: 2,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
