/** The documented set of Secrets (deploy/k8s/secrets.json): the only ones manifests may name. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { K8S_DIR, type OverlayName } from "./overlays.js";

export interface DocumentedSecret {
  overlays: OverlayName[];
  optional: boolean;
  keys: Record<string, string>;
}

export const SECRETS_FILE = path.join(K8S_DIR, "secrets.json");

export function documentedSecrets(): Record<string, DocumentedSecret> {
  return (JSON.parse(readFileSync(SECRETS_FILE, "utf8")) as { secrets: Record<string, DocumentedSecret> })
    .secrets;
}

/** The keys of a documented Secret (what envFrom secretRef would bring in). */
export function documentedKeys(name: string): string[] {
  return Object.keys(documentedSecrets()[name]?.keys ?? {});
}
