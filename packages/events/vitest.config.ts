import { defineConfig } from "vitest/config";
import shared from "../../vitest.shared.js";

// As in packages/db: with "import" among the worker's --conditions, Node's require() picks
// pg-pool's ESM entry and pg breaks ("Class extends value [object Module] is not a
// constructor"). Keep only conditions that are safe for CommonJS resolution.
const conditions = ["@petri/source", "node"];

export default defineConfig({
  ...shared,
  ssr: { ...shared.ssr, resolve: { ...shared.ssr?.resolve, conditions } },
});
