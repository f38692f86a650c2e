/**
 * Every rendered object is checked against the Kubernetes API schemas (kubernetes-models,
 * generated from the Kubernetes 1.33 OpenAPI document; every API we use is GA since 1.25 or
 * earlier, so what passes there holds for 1.31) and the HTTPRoute against Gateway API v1.
 * An object of a kind no model knows fails: nothing goes unchecked.
 */
import { describe, expect, it } from "vitest";
import * as k8s from "kubernetes-models";
import { HTTPRoute } from "@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute";
import { OVERLAYS, type K8sObject, renderedObjects } from "./overlays.js";

type Model = new (data: object) => { validate(): void };

const gatewayApi: Record<string, Model> = {
  "gateway.networking.k8s.io/v1/HTTPRoute": HTTPRoute as unknown as Model,
};

/** kubernetes-models exports each API group as a namespace: apps.v1.Deployment, networkingK8sIo.v1.Ingress, v1.Service. */
function modelFor(object: K8sObject): Model | undefined {
  const special = gatewayApi[`${object.apiVersion}/${object.kind}`];
  if (special) return special;
  const exports = k8s as unknown as Record<string, Record<string, unknown>>;
  const [group, version] = object.apiVersion.includes("/")
    ? object.apiVersion.split("/")
    : [undefined, object.apiVersion];
  const kinds = group
    ? (exports[
        group
          .split(".")
          .map((part, i) => (i === 0 ? part : part[0]!.toUpperCase() + part.slice(1)))
          .join("")
      ]?.[version!] as Record<string, Model> | undefined)
    : (exports[version!] as Record<string, Model> | undefined);
  return kinds?.[object.kind];
}

describe.each(OVERLAYS)("overlay %s: API schemas", (overlay) => {
  const objects = renderedObjects(overlay);

  it("renders objects", () => expect(objects.length).toBeGreaterThan(50));

  it.each(objects.map((o) => [`${o.kind} ${o.metadata.name}`, o] as const))("%s is valid", (_, object) => {
    const Model = modelFor(object);
    expect(Model, `no schema for ${object.apiVersion} ${object.kind}`).toBeDefined();
    expect(() => new Model!(object).validate()).not.toThrow();
  });
});

describe("the schema check", () => {
  it("rejects a malformed object", () => {
    const bad = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "x" },
      spec: {
        selector: {},
        template: { spec: { containers: [{ name: "a", resources: { limits: { cpu: "lots" } } }] } },
      },
    } as K8sObject;
    expect(() => new (modelFor(bad)!)(bad).validate()).toThrow(/quantity/);
  });

  it("knows no model for a kind Kubernetes does not have", () => {
    expect(modelFor({ apiVersion: "apps/v1", kind: "Deploymnet", metadata: { name: "x" } })).toBeUndefined();
  });
});
