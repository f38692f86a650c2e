// Proves that `npm run test:affected` (and Nx's cache of `test`) sees what a change touches.
// 1. Every import of a workspace package (@petri/...) is declared in the importing package's
//    package.json: Nx builds its project graph from those declarations and silently ignores an
//    undeclared import (npm's hoisting still resolves it), so a change in the imported package
//    would neither run nor invalidate the importer's tests.
// 2. For a file changed in each service, Nx's affected projects are exactly that service and
//    the projects depending on it (package.json dependencies or nx.implicitDependencies, the
//    latter for code started by path, transitively), and never another service.
// Fails (exit 1) on any mismatch.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");

/** Every workspace package: its directory, name and the workspace packages it depends on. */
function workspacePackages() {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const dirs = workspaces.flatMap((pattern) =>
    pattern.endsWith("/*")
      ? readdirSync(path.join(root, pattern.slice(0, -2)), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${pattern.slice(0, -2)}/${entry.name}`)
      : [pattern],
  );
  const manifests = dirs
    .filter((dir) => existsSync(path.join(root, dir, "package.json")))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")),
    }));
  const names = new Set(manifests.map(({ manifest }) => manifest.name));
  return manifests.map(({ dir, manifest }) => {
    const declared = Object.keys({
      ...manifest.dependencies,
      ...manifest.devDependencies,
      ...manifest.peerDependencies,
    });
    const implicit = manifest.nx?.implicitDependencies ?? [];
    return { dir, name: manifest.name, dependsOn: [...declared, ...implicit].filter((n) => names.has(n)) };
  });
}

const SKIPPED_DIRECTORIES = new Set(["node_modules", "dist", ".nx", "coverage", "rendered"]);
const SOURCE_FILE = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/;
const WORKSPACE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["'](@petri\/[a-z0-9-]+)/g;

function sourceFiles(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : sourceFiles(relative);
    return SOURCE_FILE.test(entry.name) ? [relative] : [];
  });
}

/** "file imports @petri/x" for each workspace import its package.json does not declare. */
function undeclaredImports(pkg, names) {
  const problems = [];
  for (const file of sourceFiles(pkg.dir)) {
    const text = readFileSync(path.join(root, file), "utf8");
    for (const [, imported] of text.matchAll(WORKSPACE_IMPORT)) {
      if (imported !== pkg.name && names.has(imported) && !pkg.dependsOn.includes(imported)) {
        problems.push(`${file} imports ${imported}`);
      }
    }
  }
  return problems;
}

/** `name` and every package that depends on it, directly or through others. */
function withDependants(packages, name) {
  const found = new Set([name]);
  for (let grew = true; grew;) {
    grew = false;
    for (const pkg of packages) {
      if (!found.has(pkg.name) && pkg.dependsOn.some((dep) => found.has(dep))) {
        found.add(pkg.name);
        grew = true;
      }
    }
  }
  return found;
}

function nxAffected(file) {
  const out = execFileSync(
    path.join(root, "node_modules/.bin/nx"),
    ["show", "projects", "--affected", `--files=${file}`, "--json"],
    { cwd: root, encoding: "utf8", env: { ...process.env, NX_DAEMON: "false", NX_NO_CLOUD: "true" } },
  );
  return new Set(JSON.parse(out));
}

const packages = workspacePackages();
const names = new Set(packages.map((pkg) => pkg.name));
const undeclared = packages.flatMap((pkg) => undeclaredImports(pkg, names));
if (undeclared.length > 0) {
  console.error(
    `affected check FAILED: workspace imports missing from package.json (add them to dependencies, ` +
      `or devDependencies for tests):\n  ${undeclared.join("\n  ")}`,
  );
  process.exit(1);
}

const services = packages.filter((pkg) => pkg.dir.startsWith("services/"));
if (services.length === 0) {
  console.error("affected check FAILED: no service found under services/");
  process.exit(1);
}

let failures = 0;
for (const service of services) {
  const file = `${service.dir}/src/main.ts`;
  const affected = nxAffected(file);
  const expected = withDependants(packages, service.name);
  const missing = [...expected].filter((name) => !affected.has(name));
  const extra = [...affected].filter((name) => !expected.has(name));
  const otherServices = services.filter((s) => s !== service && affected.has(s.name)).map((s) => s.name);
  if (missing.length > 0 || extra.length > 0 || otherServices.length > 0) {
    failures += 1;
    console.error(
      `affected check FAILED for a change in ${file}:\n` +
        `  Nx affects:        ${[...affected].sort().join(" ")}\n` +
        `  manifests expect:  ${[...expected].sort().join(" ")}\n` +
        (missing.length ? `  missing: ${missing.join(" ")}\n` : "") +
        (extra.length ? `  not declared as dependants: ${extra.join(" ")}\n` : "") +
        (otherServices.length ? `  other services: ${otherServices.join(" ")}\n` : ""),
    );
  }
}
if (failures > 0) process.exit(1);
console.log(
  `affected scoping: every workspace import of ${packages.length} packages is declared; a change in each of ` +
    `${services.length} services affects it and its declared dependants only`,
);
