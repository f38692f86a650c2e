// `npm run k8s:render`: writes deploy/k8s/rendered/<name>.yaml from the overlays and deploy/k8s/monitoring.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RENDERINGS, findKubectl, renderOverlay, renderedPath } from "../src/overlays.js";

const kubectl = findKubectl({ ...process.env, CI: "true" })!;
for (const name of RENDERINGS) {
  const file = renderedPath(name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, renderOverlay(kubectl, name));
  console.log(`rendered ${path.relative(process.cwd(), file)} (kustomize ${kubectl.kustomizeVersion})`);
}
