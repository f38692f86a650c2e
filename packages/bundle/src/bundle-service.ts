import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions, type Plugin } from "esbuild";
import { WORKSPACE_SCOPE, bundleManifest, packageNameOf, runtimeResolvedPackages } from "./package-name.js";
import { BUNDLED_SERVICES, type BundledService } from "./services.js";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface BundleResult {
  service: BundledService;
  /** The directory holding main.js, its source map and package.json. */
  dir: string;
  /** Third-party packages main.js needs at run time, with their installed versions. */
  dependencies: Record<string, string>;
}

/** The version of `name` that Node would load from `fromDir` (nearest node_modules upwards). */
export function installedVersion(name: string, fromDir: string): string {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "node_modules", name, "package.json");
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    if (path.dirname(dir) === dir)
      throw new Error(`package ${name} is not installed (looked upwards from ${fromDir})`);
  }
}

/** Collects name -> version; two versions of one package cannot share one bundle's node_modules. */
class DependencySet {
  private readonly found = new Map<string, { version: string; from: string }>();

  add(name: string, fromDir: string): void {
    const version = installedVersion(name, fromDir);
    const earlier = this.found.get(name);
    if (earlier && earlier.version !== version) {
      throw new Error(
        `${name} is installed at ${earlier.version} for ${earlier.from} and at ${version} for ${fromDir}; ` +
          "align the versions so the bundle can install one",
      );
    }
    this.found.set(name, { version, from: fromDir });
  }

  versions(): Map<string, string> {
    return new Map([...this.found].map(([name, { version }]) => [name, version]));
  }
}

/**
 * How every bundle is built: one ESM file for Node 20 from a TypeScript entry, the workspace
 * packages read from their sources (as tsx runs them), with a source map for stack traces.
 */
export function nodeBundleOptions(entry: string, dir: string): BuildOptions {
  return {
    absWorkingDir: REPO_ROOT,
    entryPoints: [path.join(REPO_ROOT, entry)],
    outfile: path.join(dir, "main.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    conditions: ["@petri/source"],
    logLevel: "warning",
  };
}

/** Inlines @petri/* workspace packages (from source); leaves every other package to node_modules. */
function thirdPartyExternal(dependencies: DependencySet): Plugin {
  return {
    name: "petri-third-party-external",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith(WORKSPACE_SCOPE)) return undefined;
        const name = packageNameOf(args.path);
        if (name !== undefined) dependencies.add(name, args.resolveDir);
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * Bundles one service's main.ts (workspace packages from their TypeScript sources, as tsx runs
 * them) into `<outRoot>/<service>/main.js` and writes the package.json listing the third-party
 * packages it imports, or reads from disk at run time, at the versions installed here.
 */
export async function bundleService(service: BundledService, outRoot: string): Promise<BundleResult> {
  return bundleServiceInto(service, path.resolve(outRoot, service), { runInPlace: false });
}

/**
 * The directory inside the service's own workspace package (`<package>/dist/bundle`): run
 * there, the bundle resolves its packages exactly as the service's source does, including
 * versions npm nested under the package (cloud-labs' ajv 8 beside the root's ajv 6).
 */
export function workspaceBundleDir(service: BundledService): string {
  return path.join(REPO_ROOT, path.dirname(path.dirname(BUNDLED_SERVICES[service])), "dist", "bundle");
}

/**
 * Packages that resolve from `dir` must be the versions the bundle lists (a bundle under the
 * repo's root would load the root's ajv 6 where cloud-labs was built against its ajv 8).
 */
export function assertResolvesAsListed(dir: string, dependencies: Record<string, string>): void {
  const wrong: string[] = [];
  for (const [name, version] of Object.entries(dependencies)) {
    let found: string;
    try {
      found = installedVersion(name, dir);
    } catch {
      continue;
    }
    if (found !== version) wrong.push(`${name} ${found} (bundled against ${version})`);
  }
  if (wrong.length > 0) {
    throw new Error(`run from ${dir}, the bundle would load other versions: ${wrong.join(", ")}`);
  }
}

/**
 * `runInPlace`: the bundle will run where it is written, against the node_modules above it
 * (checked); otherwise it is copied elsewhere and its own package.json installed beside it.
 */
export async function bundleServiceInto(
  service: BundledService,
  dir: string,
  options: { runInPlace: boolean },
): Promise<BundleResult> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const dependencies = new DependencySet();
  const result = await build({
    ...nodeBundleOptions(BUNDLED_SERVICES[service], dir),
    plugins: [thirdPartyExternal(dependencies)],
    metafile: true,
  });
  // Files read from packages at run time (the gateway's documentation pages) are no imports.
  for (const input of Object.keys(result.metafile.inputs)) {
    const file = path.resolve(REPO_ROOT, input);
    for (const name of runtimeResolvedPackages(readFileSync(file, "utf8"))) {
      dependencies.add(name, path.dirname(file));
    }
  }
  const repo = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    overrides?: Record<string, unknown>;
  };
  const manifest = bundleManifest(dependencies.versions(), repo.overrides);
  writeFileSync(path.join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  if (options.runInPlace) assertResolvesAsListed(dir, manifest.dependencies);
  return { service, dir, dependencies: manifest.dependencies };
}
