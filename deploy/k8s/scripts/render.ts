// `npm run k8s:render`: writes deploy/k8s/rendered/<overlay>.yaml from the overlays.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { OVERLAYS, findKubectl, renderOverlay, renderedPath } from "../src/overlays.js";

const kubectl = findKubectl({ ...process.env, CI: "true" })!;
for (const overlay of OVERLAYS) {
  const file = renderedPath(overlay);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, renderOverlay(kubectl, overlay));
  console.log(`rendered ${path.relative(process.cwd(), file)} (kustomize ${kubectl.kustomizeVersion})`);
}
