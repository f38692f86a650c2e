// Proves the module-boundary lint is real: each forbidden import below must be reported,
// and the allowed one must pass. Fails (exit 1) when a constraint stops biting.
import { execFileSync, spawnSync } from "node:child_process";

const cases = [
  {
    file: "services/identity/src/__boundary_probe.ts",
    code: 'import { x } from "@petri/experiments";\nexport const y = x;\n',
    expectError: true,
    why: "a service importing another service",
  },
  {
    file: "services/notifications/src/__boundary_probe.ts",
    code: 'import { x } from "@petri/gateway";\nexport const y = x;\n',
    expectError: true,
    why: "a service importing the gateway",
  },
  {
    file: "gateway/src/__boundary_probe.ts",
    code: 'import { Kysely } from "kysely";\nexport const k = Kysely;\n',
    expectError: true,
    why: "the gateway importing kysely",
  },
  {
    file: "gateway/src/__boundary_probe.ts",
    code: 'import pg from "pg";\nexport const p = pg;\n',
    expectError: true,
    why: "the gateway importing pg",
  },
  {
    file: "gateway/src/__boundary_probe.ts",
    code: 'import { connect } from "@nats-io/transport-node";\nexport const c = connect;\n',
    expectError: true,
    why: "the gateway importing nats",
  },
  {
    file: "gateway/src/__boundary_probe.ts",
    code: 'import { x } from "@petri/db";\nexport const y = x;\n',
    expectError: true,
    why: "the gateway importing the db library",
  },
  {
    file: "packages/service-kit/src/__boundary_probe.ts",
    code: 'import { x } from "@petri/identity";\nexport const y = x;\n',
    expectError: true,
    why: "a library importing a service",
  },
  {
    file: "services/identity/src/__boundary_probe.ts",
    code: 'import { x } from "@petri/testkit";\nexport const y = x;\n',
    expectError: true,
    why: "production code importing the testkit",
  },
  {
    file: "services/experiments/src/__boundary_probe.ts",
    code: 'import { validRequests } from "@petri/fixtures";\nexport const y = validRequests;\n',
    expectError: true,
    why: "production code importing the shared test fixtures",
  },
  {
    file: "services/experiments/src/__boundary_probe.test.ts",
    code: 'import { validRequests } from "@petri/fixtures";\nexport const y = validRequests;\n',
    expectError: false,
    why: "a service's unit test importing the shared test fixtures",
  },
  {
    file: "gateway/test/__boundary_probe.ts",
    code: 'import { startServicesInProcess } from "@petri/services-in-process";\nexport const y = startServicesInProcess;\n',
    expectError: false,
    why: "the gateway's integration tests running the real services in process",
  },
  {
    file: "gateway/src/__boundary_probe.test.ts",
    code: 'import { startServicesInProcess } from "@petri/services-in-process";\nexport const y = startServicesInProcess;\n',
    expectError: true,
    why: "the gateway's unit tests reaching the services (and their database)",
  },
  {
    file: "gateway/src/__boundary_probe.ts",
    code: 'import { startServicesInProcess } from "@petri/services-in-process";\nexport const y = startServicesInProcess;\n',
    expectError: true,
    why: "the gateway importing the services",
  },
  {
    file: "packages/events/src/__boundary_probe.ts",
    code: 'import { x } from "@petri/host";\nexport const y = x;\n',
    expectError: true,
    why: "the event mechanics importing the host that runs them (host -> events only)",
  },
  {
    file: "services/identity/src/__boundary_probe.ts",
    code: 'import { x } from "@petri/db";\nexport const y = x;\n',
    expectError: false,
    why: "a service importing a library",
  },
  {
    file: "services/experiments/src/app/__boundary_probe.ts",
    code: 'import { x } from "../rpc/experiments-rpc.js";\nexport const y = x;\n',
    expectError: true,
    rule: /no-restricted-imports/,
    why: "a use case importing the RPC layer",
  },
  {
    file: "services/experiments/src/app/__boundary_probe.ts",
    code: 'import { x } from "../contract/experiment-message.js";\nexport const y = x;\n',
    expectError: false,
    rule: /no-restricted-imports/,
    why: "a use case importing the domain -> message mapping",
  },
];

// The rule reads Nx's project graph; make sure it is computed.
execFileSync("node_modules/.bin/nx", ["show", "projects"], {
  stdio: "ignore",
  env: { ...process.env, NX_DAEMON: "false" },
});

let failures = 0;
for (const c of cases) {
  const run = spawnSync(
    "node_modules/.bin/eslint",
    ["--stdin", "--stdin-filename", c.file, "--rule", '{"@typescript-eslint/no-unused-vars":"off"}'],
    { input: c.code, encoding: "utf8" },
  );
  const reported = (c.rule ?? /enforce-module-boundaries/).test(run.stdout);
  if (reported !== c.expectError) {
    failures += 1;
    console.error(
      `boundary check FAILED: ${c.why} was ${reported ? "reported" : "not reported"}\n${run.stdout}${run.stderr}`,
    );
  }
}
if (failures > 0) process.exit(1);
console.log(`module boundaries: ${cases.length} probes behaved as expected`);
