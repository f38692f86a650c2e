/**
 * Every variable a process cannot start without (read from its own configuration code) is
 * provided, in every overlay, to its Deployment and to its migrations Job. Optional Secret
 * references do not count: the pod would start without them.
 */
import { describe, expect, it } from "vitest";
import { documentedKeys } from "./documented-secrets.js";
import { OVERLAYS, renderedObjects } from "./overlays.js";
import { PROCESSES } from "./processes.js";
import { gatewayRequiredVariables, missingVariables, serviceRequiredVariables } from "./required-env.js";
import { allContainers, containerEnvironment, workloads } from "./workloads.js";
import { ConfigError, loadConfig } from "@petri/service-kit";
import { z } from "zod";

const required = new Map<string, string[]>(
  PROCESSES.map((p) => [
    p.name,
    p.role === "gateway" ? gatewayRequiredVariables() : serviceRequiredVariables(p.name),
  ]),
);

describe("required variables, from the code", () => {
  it("are found for every process", () => {
    // The floor every process has: a cluster process cannot run without these.
    expect(required.get("gateway")).toEqual(
      expect.arrayContaining(["PETRI_INTERNAL_JWT_PRIVATE_KEY", "PETRI_IDENTITY_URL"]),
    );
    for (const p of PROCESSES.filter((p) => p.role === "service"))
      expect(required.get(p.name), p.name).toEqual(
        expect.arrayContaining(["DATABASE_URL", "NATS_URL", "PETRI_INTERNAL_JWT_PUBLIC_KEY"]),
      );
    expect(required.get("identity")).toEqual(
      expect.arrayContaining(["PETRI_IDENTITY_KEK", "PETRI_API_KEY_PEPPER"]),
    );
    expect(required.get("notifications")).toContain("PETRI_NOTIFICATIONS_KEK");
  });

  it("leave out what has a default or is optional", () => {
    const schema = z.object({ A: z.string(), B: z.string().default("b"), C: z.string().optional() });
    expect(missingVariables((env) => loadConfig(schema, env))).toEqual(["A"]);
    expect(() => loadConfig(schema, {})).toThrow(ConfigError);
  });
});

describe.each(OVERLAYS)("overlay %s: required variables provided", (overlay) => {
  const objects = renderedObjects(overlay);
  const all = workloads(objects);

  it.each(PROCESSES.map((p) => [p.name, p] as const))("%s", (_, p) => {
    const pods = all.filter(
      (w) => w.labels["app.kubernetes.io/name"] === p.name && ["Deployment", "Job"].includes(w.kind),
    );
    expect(pods.length, p.name).toBe(p.role === "gateway" ? 1 : 2);
    for (const w of pods)
      for (const c of allContainers(w.pod)) {
        const env = containerEnvironment(c, objects, documentedKeys);
        const missing = required.get(p.name)!.filter((name) => {
          const source = env.get(name);
          return !source || (source.from === "secret" && source.optional);
        });
        expect(missing, `${w.kind} ${w.name} lacks required variables`).toEqual([]);
      }
  });
});
