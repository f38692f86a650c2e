import { describe, expect, it } from "vitest";
import { bundleManifest, packageNameOf, runtimeResolvedPackages } from "./package-name.js";

describe("packageNameOf", () => {
  it("names the package of bare specifiers, scoped or not, with or without a sub-path", () => {
    expect(packageNameOf("kysely")).toBe("kysely");
    expect(packageNameOf("pino/file")).toBe("pino");
    expect(packageNameOf("@connectrpc/connect-node")).toBe("@connectrpc/connect-node");
    expect(packageNameOf("@bufbuild/protobuf/wire")).toBe("@bufbuild/protobuf");
  });

  it("returns undefined for relative paths, absolute paths and Node built-ins", () => {
    for (const specifier of ["./x.js", "../y", "/abs/z.js", "node:fs", "fs", "node:test", "@scope"]) {
      expect(packageNameOf(specifier)).toBeUndefined();
    }
  });
});

describe("runtimeResolvedPackages", () => {
  it("finds the packages of require.resolve calls with literal specifiers", () => {
    const source = [
      'const a = () => require.resolve("swagger-ui-dist/package.json");',
      "const b = require.resolve('redoc/bundles/redoc.standalone.js');",
      'const c = require.resolve("./local.js");',
      "const d = require.resolve(variable);",
    ].join("\n");
    expect(runtimeResolvedPackages(source)).toEqual(["redoc", "swagger-ui-dist"]);
  });
});

describe("bundleManifest", () => {
  it("is an ES module package listing the dependencies in name order and nothing else", () => {
    const manifest = bundleManifest(
      new Map([
        ["zod", "4.6.7"],
        ["@bufbuild/protobuf", "2.13.0"],
      ]),
    );
    expect(manifest).toEqual({
      type: "module",
      dependencies: { "@bufbuild/protobuf": "2.13.0", zod: "4.6.7" },
    });
    expect(Object.keys(manifest.dependencies)).toEqual(["@bufbuild/protobuf", "zod"]);
  });

  it("keeps the repo's overrides about packages the bundle lists, and only those", () => {
    const overrides = {
      "kysely-pglite-dialect": { "@electric-sql/pglite": "$@electric-sql/pglite" },
      "not-listed": { other: "1.0.0" },
    };
    const listed = new Map([
      ["kysely-pglite-dialect", "1.3.1"],
      ["@electric-sql/pglite", "0.5.16"],
    ]);
    expect(bundleManifest(listed, overrides).overrides).toEqual({
      "kysely-pglite-dialect": { "@electric-sql/pglite": "$@electric-sql/pglite" },
    });
    expect(bundleManifest(new Map([["zod", "4.6.7"]]), overrides)).not.toHaveProperty("overrides");
  });
});
