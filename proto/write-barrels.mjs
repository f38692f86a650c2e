// Writes packages/contracts/src/<package>.ts: one barrel per proto package, re-exporting every
// generated file of that package, so a new .proto file needs no hand edit to be importable.
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const gen = path.resolve(import.meta.dirname, "../packages/contracts/src/gen");
const out = path.resolve(import.meta.dirname, "../packages/contracts/src");

function barrel(dir, comment) {
  const files = readdirSync(path.join(gen, dir))
    .filter((f) => f.endsWith("_pb.ts"))
    .sort();
  return (
    [comment, ...files.map((f) => `export * from "./gen/${dir}/${f.replace(/\.ts$/, ".js")}";`)].join("\n") +
    "\n"
  );
}

for (const pkg of readdirSync(path.join(gen, "petri")).sort()) {
  const text = barrel(
    `petri/${pkg}/v1`,
    `// Barrel for petri.${pkg}.v1, written by proto/write-barrels.mjs after \`npm run generate\`.`,
  );
  writeFileSync(path.join(out, `${pkg}.ts`), text);
}
writeFileSync(
  path.join(out, "health.ts"),
  barrel(
    "grpc/health/v1",
    "// Barrel for the standard grpc.health.v1 protocol, written by proto/write-barrels.mjs.",
  ),
);
