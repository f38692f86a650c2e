// Lists the source files over MAX_FILE_LINES lines and the functions (declarations, methods,
// accessors, constructors, function expressions and arrow functions) whose body spans over
// MAX_FUNCTION_LINES lines: a unit that long is hard to read and review whole.
// Exit status 1 when anything is listed: npm test (scripts/test.sh) runs it.
// Usage: node scripts/check-sizes.mjs [path-prefix ...]   (default: every tracked .ts file)
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import ts from "typescript";

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

// Declarative data tables: long because they list data, not because a unit does too much.
// Their functions are still measured; only the file length is exempt.
const DATA_TABLE_FILES = new Set([
  // The protocol-template catalogue: one entry per standard method.
  "services/experiments/src/domain/templates/catalogue.ts",
  // The controlled-substance list (CWC and DEA schedules) with names, synonyms and CAS numbers.
  "services/experiments/src/domain/intake/safety/controlled-substances.ts",
  // Example requests of every experiment type, shared by tests across packages.
  "packages/fixtures/src/intake/requests.ts",
  "packages/fixtures/src/intake/client-intakes.ts",
  // The engine's query corpus: queries with their expected type and entities.
  "packages/fixtures/src/engine/query-corpus.ts",
]);

// Migrations are history: a migration is never edited once released, and its up() is one
// declarative list of schema statements. Their length is not measured.
function isMigration(path) {
  return /\/db\/migrations\/\d{4}_\d{2}_\d{2}_\d{4}_[^/]+\.ts$/.test(path);
}

// Test code and generated code are not read as units of design.
function isMeasured(path) {
  if (!path.endsWith(".ts") || path.endsWith(".d.ts")) return false;
  if (path.endsWith(".test.ts")) return false;
  if (path.split("/").includes("test")) return false;
  if (path.startsWith("packages/contracts/src/gen/")) return false;
  // Written by proto/write-vocabulary.mjs from the proto enums, like gen/.
  if (path === "packages/contracts/src/vocabulary.ts") return false;
  if (isMigration(path)) return false;
  return true;
}

function trackedTypeScriptFiles(prefixes) {
  const output = execFileSync("git", ["ls-files", "-z", "--", "*.ts"], { encoding: "utf8" });
  return output
    .split("\0")
    .filter((path) => path !== "" && isMeasured(path))
    .filter((path) => prefixes.length === 0 || prefixes.some((prefix) => path.startsWith(prefix)));
}

function lineOf(source, position) {
  return source.getLineAndCharacterOfPosition(position).line + 1;
}

function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent))
    return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return "(anonymous)";
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node)
  );
}

function longFunctions(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const visit = (node) => {
    if (isFunctionLike(node) && node.body) {
      const start = lineOf(source, node.body.getStart(source));
      const lines = lineOf(source, node.body.getEnd()) - start + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ name: functionName(node), line: start, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const longFiles = [];
const longUnits = [];
for (const path of trackedTypeScriptFiles(process.argv.slice(2))) {
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > MAX_FILE_LINES && !DATA_TABLE_FILES.has(path)) longFiles.push({ path, lines });
  for (const unit of longFunctions(path, text)) longUnits.push({ path, ...unit });
}

for (const { path, lines } of longFiles) console.log(`file over ${MAX_FILE_LINES} lines: ${path} (${lines})`);
for (const { path, line, name, lines } of longUnits)
  console.log(`function over ${MAX_FUNCTION_LINES} lines: ${path}:${line} ${name} (${lines})`);
console.log(`${longFiles.length} file(s) and ${longUnits.length} function(s) over the limits`);
process.exitCode = longFiles.length + longUnits.length > 0 ? 1 : 0;
