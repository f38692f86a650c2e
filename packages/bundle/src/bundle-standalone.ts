import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { REPO_ROOT, nodeBundleOptions } from "./bundle-service.js";

/** The standalone host's entry point: every service and the gateway in one process. */
export const STANDALONE_ENTRY = "packages/standalone/src/main.ts";

/** Where `npm start` runs the standalone bundle from (inside the repo, beside its node_modules). */
export const STANDALONE_BUNDLE_DIR = path.join(REPO_ROOT, "packages", "standalone", "dist", "bundle");

/**
 * Third-party imports stay outside the bundle, each pinned to the file esbuild resolves from
 * the importing source file. The standalone process hosts every service, and npm nests a
 * package under a service when its version differs from the root's (cloud-labs' ajv 8 beside
 * the root's ajv 6): a bare specifier in one bundle file could reach only one of them.
 */
function pinnedThirdParty(): Plugin {
  const resolving = Symbol("petri-pinned-third-party");
  return {
    name: "petri-pinned-third-party",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith("@petri/") || args.pluginData === resolving) return undefined;
        if (args.path.startsWith("node:")) return { path: args.path, external: true };
        const resolved = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: resolving,
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        return { path: resolved.path, external: true };
      });
    },
  };
}

/**
 * Bundles the standalone host into `dir` (about a second): main.js and the chunk it imports once
 * it has begun preparing the database (D316). It runs in place, against this checkout's
 * node_modules: Node then loads a few files of Petri's code instead of compiling several hundred
 * TypeScript modules at start. Written beside `dir` and renamed into it file by file, so a build
 * running at the same time (a test, the bench) never sees half a file; chunks of earlier builds
 * are removed.
 */
export async function bundleStandalone(dir: string = STANDALONE_BUNDLE_DIR): Promise<string> {
  mkdirSync(path.dirname(dir), { recursive: true });
  const scratch = mkdtempSync(`${dir}-building-`);
  try {
    const { outfile: _single, ...options } = nodeBundleOptions(STANDALONE_ENTRY, scratch);
    await build({
      ...options,
      outdir: scratch,
      splitting: true,
      entryNames: "main",
      chunkNames: "chunk-[hash]",
      plugins: [pinnedThirdParty()],
    });
    const built = new Set(readdirSync(scratch));
    mkdirSync(dir, { recursive: true });
    for (const file of built) renameSync(path.join(scratch, file), path.join(dir, file));
    for (const file of readdirSync(dir)) if (!built.has(file)) rmSync(path.join(dir, file), { force: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return path.join(dir, "main.js");
}
