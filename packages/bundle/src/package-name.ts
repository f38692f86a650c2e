import { isBuiltin } from "node:module";

/** Workspace packages: inlined into every bundle, never installed. */
export const WORKSPACE_SCOPE = "@petri/";

/**
 * The npm package a bare import specifier names ("@scope/name/sub/path" -> "@scope/name",
 * "name/sub" -> "name"); undefined for relative and absolute paths and Node's built-ins.
 */
export function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || isBuiltin(specifier)) return undefined;
  const parts = specifier.split("/");
  if (specifier.startsWith("@")) return parts.length >= 2 && parts[1] ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] || undefined;
}

/** `require.resolve("pkg/file")` calls: files a module reads from a package at run time. */
const RUNTIME_RESOLVE = /\brequire\.resolve\(\s*(["'])([^"'\n]+)\1/g;

export function runtimeResolvedPackages(source: string): string[] {
  const names = new Set<string>();
  for (const match of source.matchAll(RUNTIME_RESOLVE)) {
    const name = packageNameOf(match[2] ?? "");
    if (name !== undefined) names.add(name);
  }
  return [...names].sort();
}

type Overrides = Record<string, unknown>;

/**
 * The package.json written beside a bundle: its third-party packages and, of the repo's npm
 * `overrides`, those about packages it lists (without them npm cannot resolve the same tree:
 * kysely-pglite-dialect's peer range predates the pinned PGlite).
 */
export function bundleManifest(
  dependencies: ReadonlyMap<string, string>,
  repoOverrides: Overrides = {},
): { type: "module"; dependencies: Record<string, string>; overrides?: Overrides } {
  const sorted = [...dependencies.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const overrides = Object.fromEntries(
    Object.entries(repoOverrides).filter(([name]) => dependencies.has(name)),
  );
  return {
    type: "module",
    dependencies: Object.fromEntries(sorted),
    ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
  };
}
