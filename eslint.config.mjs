import js from "@eslint/js";
import nx from "@nx/eslint-plugin";
import prettier from "eslint-config-prettier";
import tseslint from "typescript-eslint";

// Tags (in each package.json "nx.tags"):
//   type:service | type:gateway | type:lib | type:contracts | type:testkit | type:app | type:e2e | type:proto | type:deploy
//   scope:<service> | scope:gateway | scope:shared | scope:deploy
//   infra:persistence on the libraries that touch a database or the bus (db, events, host).
const depConstraints = [
  { sourceTag: "type:contracts", onlyDependOnLibsWithTags: [] },
  { sourceTag: "type:lib", onlyDependOnLibsWithTags: ["type:lib", "type:contracts"] },
  { sourceTag: "type:service", onlyDependOnLibsWithTags: ["type:lib", "type:contracts"] },
  {
    sourceTag: "type:gateway",
    onlyDependOnLibsWithTags: ["type:lib", "type:contracts"],
    notDependOnLibsWithTags: ["infra:persistence"],
    // The gateway owns no data and consumes no events: no database or bus clients.
    bannedExternalImports: ["pg", "pg-*", "kysely", "kysely-*", "@electric-sql/*", "@nats-io/*", "nats"],
  },
  { sourceTag: "type:testkit", onlyDependOnLibsWithTags: ["type:lib", "type:contracts", "type:testkit"] },
  // The seven services composed in one process (packages/services-in-process): standalone hosts
  // them behind its gateway, the gateway's integration tests call them.
  {
    sourceTag: "type:services-in-process",
    onlyDependOnLibsWithTags: ["type:service", "type:lib", "type:contracts"],
  },
  {
    sourceTag: "type:app",
    onlyDependOnLibsWithTags: [
      "type:service",
      "type:gateway",
      "type:services-in-process",
      "type:lib",
      "type:contracts",
    ],
  },
  { sourceTag: "type:e2e", onlyDependOnLibsWithTags: ["*"] },
  // deploy/k8s checks the manifests against the services' own configuration schemas.
  {
    sourceTag: "type:deploy",
    onlyDependOnLibsWithTags: ["type:service", "type:gateway", "type:lib", "type:contracts"],
  },
  // A service may reach only its own scope and shared code; never another service.
  ...["identity", "experiments", "marketplace", "hypotheses", "engine", "cloud-labs", "notifications"].map(
    (s) => ({
      sourceTag: `scope:${s}`,
      onlyDependOnLibsWithTags: [`scope:${s}`, "scope:shared"],
    }),
  ),
  { sourceTag: "scope:gateway", onlyDependOnLibsWithTags: ["scope:gateway", "scope:shared"] },
];

const boundaries = (extra = [], adjust = (c) => c) => [
  "error",
  {
    enforceBuildableLibDependency: false,
    allowCircularSelfDependency: false,
    depConstraints: depConstraints.map((c) =>
      adjust(
        ["type:service", "type:gateway", "type:lib", "type:app"].includes(c.sourceTag)
          ? { ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, ...extra] }
          : c,
      ),
    ),
  },
];

// The gateway's integration tests (gateway/test/) run the real services in process: they may
// use @petri/services-in-process, which brings the services' database with it. The gateway's
// own code (src/, its unit tests included) still reaches no database.
const gatewayIntegrationTests = boundaries(["type:testkit", "type:services-in-process"], (c) => {
  if (c.sourceTag !== "type:gateway") return c;
  const { notDependOnLibsWithTags: _persistence, ...rest } = c;
  return rest;
});

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.nx/**",
      "**/.petri/**",
      "packages/contracts/src/gen/**",
      "**/coverage/**",
      "**/vitest.config.ts",
      "vitest.shared.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { plugins: { "@nx": nx } },
  {
    files: ["**/*.ts", "**/*.mjs", "**/*.js"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly",
        setInterval: "readonly",
        clearInterval: "readonly",
        Buffer: "readonly",
        URL: "readonly",
        AbortController: "readonly",
        AbortSignal: "readonly",
        TextEncoder: "readonly",
        TextDecoder: "readonly",
        fetch: "readonly",
        Response: "readonly",
        Request: "readonly",
        Headers: "readonly",
        structuredClone: "readonly",
        queueMicrotask: "readonly",
        setImmediate: "readonly",
      },
    },
    rules: {
      "@nx/enforce-module-boundaries": boundaries(),
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    // Tests may use the testkit (launchers, fake clock, sinks).
    files: ["**/*.test.ts", "**/test/**/*.ts"],
    rules: { "@nx/enforce-module-boundaries": boundaries(["type:testkit"]), "no-console": "off" },
  },
  {
    files: ["gateway/test/**/*.ts"],
    rules: { "@nx/enforce-module-boundaries": gatewayIntegrationTests },
  },
  {
    files: ["**/scripts/**", "**/*.mjs", "**/main.ts"],
    rules: { "no-console": "off" },
  },
  {
    // A use case records what it changed through contract/ (domain -> proto messages), never
    // through the RPC layer: the RPC handlers call use cases, not the other way round.
    files: ["services/*/src/app/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["../rpc/*", "../../rpc/*"],
              message: "use cases do not depend on the RPC layer: map to messages in contract/",
            },
          ],
        },
      ],
    },
  },
  prettier,
);
