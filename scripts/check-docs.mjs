// The repository stands alone: no tracked file cites a document that is not in it, every
// `@<file>` of a README curl example exists, and every relative link in README.md and
// docs/*.md resolves. Exit 1 with one line per problem.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

const root = join(dirname(new URL(import.meta.url).pathname), "..");
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
  .split("\0")
  .filter((path) => path && existsSync(join(root, path)));
const self = "scripts/check-docs.mjs";

// Documents that lived outside the repository; the in-repo ones are docs/api.md,
// docs/architecture.md, docs/intake-model.md and docs/assay-notes.md.
const outside = [
  { pattern: /\.\.\/shared|\bshared\/reference/, what: "a path outside the repository" },
  { pattern: /\bSPEC\b/, what: "the outside SPEC (use docs/api.md)" },
  { pattern: /DESIGN\.md/, what: "the outside DESIGN.md (use docs/architecture.md)" },
  { pattern: /(?<![\w-])reference\/[\w-]+\.md/, what: "an outside reference/ document" },
  // Inside docs/ the sibling link `intake-model.md` is right; elsewhere the path is docs/intake-model.md.
  { pattern: /(?<!docs\/)\bintake-model\.md/, what: "intake-model.md outside docs/", outsideDocs: true },
  {
    pattern: /engine-and-cloudlab-notes|reliability-test-plan|architecture-anchors/,
    what: "an outside note",
  },
  { pattern: /\btoolchain\.md/, what: "the outside toolchain.md" },
];

const problems = [];
const isText = (path) => !/\.(png|jpe?g|gif|ico|wasm|woff2?|gz|tgz|zip|pdf)$/i.test(path);

for (const path of tracked) {
  if (path === self || !isText(path)) continue;
  const lines = readFileSync(join(root, path), "utf8").split("\n");
  lines.forEach((line, index) => {
    for (const { pattern, what, outsideDocs } of outside) {
      if (outsideDocs && path.startsWith("docs/")) continue;
      if (pattern.test(line))
        problems.push(`${path}:${index + 1}: cites ${what}: ${line.trim().slice(0, 120)}`);
    }
  });
}

const markdown = tracked.filter((path) => path === "README.md" || /^docs\/[^/]+\.md$/.test(path));
for (const path of markdown) {
  const text = readFileSync(join(root, path), "utf8");
  // [text](target) links; absolute URLs and pure anchors are not files.
  for (const match of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = match[1].split("#")[0];
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const resolved = normalize(join(dirname(path), decodeURIComponent(target)));
    if (!existsSync(join(root, resolved))) problems.push(`${path}: link to a missing file: ${match[1]}`);
  }
}

// Every curl command of README.md (continuation lines joined): each `@<file>` it sends
// (`-d @file`, `--data-binary @file`, `-F x=@file`) exists, relative to the repository root.
const commands = readFileSync(join(root, "README.md"), "utf8").replace(/\\\n/g, " ").split("\n");
for (const command of commands.filter((line) => /^\s*curl\s/.test(line))) {
  for (const match of command.matchAll(/(?:\s|=)@([^\s'"]+)/g)) {
    if (!existsSync(join(root, match[1])))
      problems.push(`README.md: curl example file missing: @${match[1]}`);
  }
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`check-docs: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`check-docs: ${tracked.length} tracked files stand alone; README and docs links resolve`);
