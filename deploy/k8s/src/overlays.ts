/**
 * The overlays and their committed rendering: `kubectl kustomize deploy/k8s/overlays/<name>`
 * is what an operator applies, so its output is committed under deploy/k8s/rendered/ and a
 * test fails when it is stale (`npm run k8s:render` writes it again).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseAllDocuments } from "yaml";

export const OVERLAYS = ["local", "production"] as const;
export type OverlayName = (typeof OVERLAYS)[number];
/**
 * Everything rendered: the overlays, and the monitoring objects (deploy/k8s/monitoring, a
 * kustomization of its own since it needs the Prometheus Operator's CRDs).
 */
export const RENDERINGS = [...OVERLAYS, "monitoring"] as const;
export type RenderingName = (typeof RENDERINGS)[number];

/** deploy/k8s */
export const K8S_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REPO_ROOT = path.resolve(K8S_DIR, "../..");

export const kustomizationDir = (name: RenderingName) =>
  name === "monitoring" ? path.join(K8S_DIR, "monitoring") : path.join(K8S_DIR, "overlays", name);
export const renderedPath = (name: RenderingName) => path.join(K8S_DIR, "rendered", `${name}.yaml`);

const HEADER = (name: RenderingName) =>
  `# Rendered by \`kubectl kustomize ${path.relative(REPO_ROOT, kustomizationDir(name))}\`: what \`kubectl apply -k\` applies.\n` +
  `# Do not edit: change the base or the overlay, then run \`npm run k8s:render\` (a test checks it is fresh).\n`;

export interface Kubectl {
  path: string;
  kustomizeVersion: string;
}

/**
 * kubectl (with its built-in kustomize), or undefined when it is not installed. Under CI a
 * missing kubectl is an error: the freshness check must run there, never skip.
 */
export function findKubectl(env: NodeJS.ProcessEnv = process.env): Kubectl | undefined {
  const candidate = env.KUBECTL ?? "kubectl";
  try {
    const out = execFileSync(candidate, ["version", "--client"], { encoding: "utf8", stdio: "pipe" });
    const kustomizeVersion = /Kustomize Version:\s*(\S+)/.exec(out)?.[1] ?? "unknown";
    return { path: candidate, kustomizeVersion };
  } catch {
    if (env.CI === "true")
      throw new Error(
        `kubectl was not found (tried "${candidate}"): the Kubernetes manifest checks need kubectl 1.32 or later ` +
          "(kustomize v5.5) on PATH, or its path in KUBECTL",
      );
    return undefined;
  }
}

/** The kustomization as kustomize builds it now, with the header the committed file carries. */
export function renderOverlay(kubectl: Kubectl, name: RenderingName): string {
  const out = execFileSync(kubectl.path, ["kustomize", kustomizationDir(name)], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  });
  return HEADER(name) + out;
}

export function readRendered(name: RenderingName): string {
  return readFileSync(renderedPath(name), "utf8");
}

/** A Kubernetes object as parsed from YAML (validated separately against the schemas). */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export function parseManifests(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`invalid YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((object): object is K8sObject => object !== null);
}

/** The committed rendering of an overlay (or of the monitoring objects), parsed. */
export function renderedObjects(name: RenderingName): K8sObject[] {
  return parseManifests(readRendered(name));
}
