import { describe, expect, it } from "vitest";
import type { K8sObject } from "./overlays.js";
import { type Container, containerEnvironment, plainValue, selects } from "./workloads.js";

describe("selects", () => {
  const labels = { app: "a", tier: "service" };

  it("matches labels and expressions as Kubernetes does", () => {
    expect(selects({}, labels)).toBe(true);
    expect(selects({ matchLabels: { app: "a" } }, labels)).toBe(true);
    expect(selects({ matchLabels: { app: "b" } }, labels)).toBe(false);
    expect(
      selects(
        { matchExpressions: [{ key: "tier", operator: "In", values: ["service", "gateway"] }] },
        labels,
      ),
    ).toBe(true);
    expect(
      selects({ matchExpressions: [{ key: "tier", operator: "NotIn", values: ["service"] }] }, labels),
    ).toBe(false);
    expect(selects({ matchExpressions: [{ key: "zone", operator: "Exists" }] }, labels)).toBe(false);
    expect(selects({ matchExpressions: [{ key: "zone", operator: "DoesNotExist" }] }, labels)).toBe(true);
  });

  it("selects nothing without a selector", () => expect(selects(undefined, labels)).toBe(false));
});

describe("containerEnvironment", () => {
  const objects = [
    {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "common" },
      data: { LOG_LEVEL: "info", EMPTY: "", A: "map" },
    },
  ] as unknown as K8sObject[];
  const container: Container = {
    name: "c",
    image: "i",
    envFrom: [{ configMapRef: { name: "common" } }, { secretRef: { name: "s" } }],
    env: [
      { name: "A", value: "own" },
      { name: "KEY", valueFrom: { secretKeyRef: { name: "k", key: "KEY", optional: true } } },
      { name: "LOG_LEVEL", value: "" },
    ],
  };
  const env = containerEnvironment(container, objects, (secret) => (secret === "s" ? ["FROM_SECRET"] : []));

  it("layers ConfigMaps, Secrets and env entries, later ones winning, empty values unset", () => {
    expect(plainValue(env, "A")).toBe("own");
    expect(env.has("EMPTY")).toBe(false);
    expect(env.has("LOG_LEVEL")).toBe(false);
    expect(env.get("FROM_SECRET")).toEqual({
      from: "secret",
      name: "s",
      key: "FROM_SECRET",
      optional: false,
    });
    expect(env.get("KEY")).toEqual({ from: "secret", name: "k", key: "KEY", optional: true });
  });

  it("refuses a ConfigMap the overlay does not have", () => {
    expect(() =>
      containerEnvironment(
        { ...container, envFrom: [{ configMapRef: { name: "gone" } }] },
        objects,
        () => [],
      ),
    ).toThrow(/ConfigMap gone/);
  });
});
