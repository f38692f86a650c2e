// Writes packages/contracts/src/vocabulary.ts from the enums of proto/: for each top-level enum
// of a petri.* package, the REST spellings of its values in declaration order (the
// (petri.common.v1.rest_value) option, else the value name without the enum prefix in lower
// case), their literal type, and the map from spelling to enum value. The enums are the one
// definition; services and the gateway import these lists instead of declaring their own.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

const here = import.meta.dirname;
const out = path.resolve(here, "../packages/contracts/src/vocabulary.ts");
const REST_VALUE = "[petri.common.v1.rest_value]";

const image = JSON.parse(
  execFileSync("npx", ["--no-install", "buf", "build", "--exclude-source-info", "-o", "-#format=json"], {
    cwd: here,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  }),
);

const upperSnake = (name) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
const plural = (word) =>
  /[^AEIOU]Y$/.test(word) ? `${word.slice(0, -1)}IES` : /(S|SH|CH|X)$/.test(word) ? `${word}ES` : `${word}S`;

const enums = [];
for (const file of image.file) {
  if (!file.package?.startsWith("petri.")) continue;
  for (const e of file.enumType ?? []) {
    const prefix = `${upperSnake(e.name)}_`;
    const values = (e.value ?? [])
      .filter((v) => (v.number ?? 0) !== 0)
      .map((v) => {
        if (!v.name.startsWith(prefix)) throw new Error(`${e.name}.${v.name} lacks the prefix ${prefix}`);
        const member = v.name.slice(prefix.length);
        return { member, rest: v.options?.[REST_VALUE] ?? member.toLowerCase() };
      });
    const module = `./gen/${file.name.replace(/\.proto$/, "_pb.js")}`;
    enums.push({ name: e.name, fullName: `${file.package}.${e.name}`, module, values });
  }
}
enums.sort((a, b) => a.fullName.localeCompare(b.fullName));

const seen = new Map();
for (const e of enums) {
  if (seen.has(e.name))
    throw new Error(`enum ${e.name} is declared twice: ${seen.get(e.name)} and ${e.fullName}`);
  seen.set(e.name, e.fullName);
  const spellings = new Set(e.values.map((v) => v.rest));
  if (spellings.size !== e.values.length) throw new Error(`${e.fullName} spells two values the same`);
}

const imports = new Map();
for (const e of enums) imports.set(e.module, [...(imports.get(e.module) ?? []), e.name]);

const lines = [
  "// Written by proto/write-vocabulary.mjs from the enums of proto/ (`npm run generate`); do not edit.",
  "// Each enum's REST spellings in declaration order, their type, spelling -> enum value and back.",
  ...[...imports]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([module, names]) => `import { ${names.sort().join(", ")} } from "${module}";`),
];
for (const e of enums) {
  const list = plural(upperSnake(e.name));
  lines.push(
    "",
    `/** ${e.fullName}, as spelled in the REST API. */`,
    `export const ${list} = [${e.values.map((v) => JSON.stringify(v.rest)).join(", ")}] as const;`,
    `export type ${e.name}Name = (typeof ${list})[number];`,
    `export const ${upperSnake(e.name)}_BY_NAME: Readonly<Record<${e.name}Name, ${e.name}>> = {`,
    ...e.values.map((v) => `  ${JSON.stringify(v.rest)}: ${e.name}.${v.member},`),
    "};",
    `export const ${upperSnake(e.name)}_NAME_BY_VALUE: ReadonlyMap<${e.name}, ${e.name}Name> = new Map([`,
    ...e.values.map((v) => `  [${e.name}.${v.member}, ${JSON.stringify(v.rest)}],`),
    "]);",
  );
}
writeFileSync(out, `${lines.join("\n")}\n`);
execFileSync("npx", ["--no-install", "prettier", "--write", "--log-level=warn", out], { cwd: here });
