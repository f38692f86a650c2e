/**
 * No Secret value is in the repo, and every Secret the manifests refer to is in the documented
 * set (secrets.json), with that key, for that overlay, and optional exactly when documented so;
 * the README tells how to create each.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentedSecrets } from "./documented-secrets.js";
import { K8S_DIR, OVERLAYS, renderedObjects } from "./overlays.js";
import { ofKind, secretReferences } from "./workloads.js";

const documented = documentedSecrets();

describe.each(OVERLAYS)("overlay %s: Secrets", (overlay) => {
  const objects = renderedObjects(overlay);

  it("holds no Secret object (values never live in the repo)", () => {
    expect(ofKind(objects, "Secret").map((s) => s.metadata.name)).toEqual([]);
  });

  it("refers only to documented Secrets and keys", () => {
    const refs = secretReferences(objects);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const secret = documented[ref.name];
      expect(secret, `${ref.where}: Secret ${ref.name} is not in deploy/k8s/secrets.json`).toBeDefined();
      expect(secret!.overlays, `${ref.where}: ${ref.name} is not documented for ${overlay}`).toContain(
        overlay,
      );
      if (ref.key)
        expect(Object.keys(secret!.keys), `${ref.where}: ${ref.name} has no key ${ref.key}`).toContain(
          ref.key,
        );
      expect(ref.optional, `${ref.where}: optional must match secrets.json for ${ref.name}`).toBe(
        secret!.optional,
      );
    }
  });

  it("uses every Secret documented for it", () => {
    const used = new Set(secretReferences(objects).map((r) => r.name));
    for (const [name, secret] of Object.entries(documented))
      if (secret.overlays.includes(overlay))
        expect(used.has(name), `${name} is documented but unused`).toBe(true);
  });
});

describe("the README", () => {
  const readme = readFileSync(path.join(K8S_DIR, "README.md"), "utf8");

  it("says how to create every documented Secret and key", () => {
    for (const [name, secret] of Object.entries(documented)) {
      expect(readme, name).toContain(name);
      for (const key of Object.keys(secret.keys)) expect(readme, `${name} ${key}`).toContain(key);
    }
  });
});
