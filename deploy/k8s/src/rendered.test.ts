// What an operator applies is committed: each rendered file must equal kustomize's output now.
import { describe, expect, it } from "vitest";
import { RENDERINGS, findKubectl, readRendered, renderOverlay } from "./overlays.js";

const kubectl = findKubectl();
if (!kubectl)
  console.warn(
    "deploy/k8s: kubectl not found, the freshness check of the rendered manifests is skipped (CI=true fails instead)",
  );

describe.skipIf(!kubectl)("rendered manifests", () => {
  it.each(RENDERINGS)("rendered/%s.yaml is what kustomize builds from its kustomization", (overlay) => {
    const fresh = renderOverlay(kubectl!, overlay);
    expect(
      readRendered(overlay) === fresh,
      `deploy/k8s/rendered/${overlay}.yaml is stale (kustomize ${kubectl!.kustomizeVersion}): run npm run k8s:render and commit it`,
    ).toBe(true);
  });
});

describe("findKubectl", () => {
  it("fails under CI when kubectl is missing, naming what is needed", () => {
    expect(() => findKubectl({ CI: "true", KUBECTL: "/nonexistent/kubectl" })).toThrow(
      /kubectl was not found/,
    );
  });

  it("reports a missing kubectl as absent outside CI", () => {
    expect(findKubectl({ KUBECTL: "/nonexistent/kubectl" })).toBeUndefined();
  });
});
