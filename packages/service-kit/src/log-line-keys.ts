/**
 * Reads a raw JSON log line the way a strict log pipeline does, to prove that no line repeats
 * a key: JSON.parse keeps the last of two equal keys silently, so parsed lines cannot show it.
 */
import { visit } from "jsonc-parser";

/** Keys that occur more than once in one object of `line` ("a.b" for nested objects). */
export function repeatedLogKeys(line: string): string[] {
  const repeated: string[] = [];
  const open: Array<{ path: string; keys: Set<string> }> = [];
  let valid = true;
  visit(
    line,
    {
      onObjectBegin: (_offset, _length, _line, _character, pathSupplier) => {
        open.push({ path: pathSupplier().join("."), keys: new Set() });
      },
      onObjectProperty: (property) => {
        const object = open.at(-1)!;
        if (object.keys.has(property)) repeated.push(object.path ? `${object.path}.${property}` : property);
        object.keys.add(property);
      },
      onObjectEnd: () => {
        open.pop();
      },
      onError: () => {
        valid = false;
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  if (!valid) throw new Error(`not a JSON log line: ${line.slice(0, 200)}`);
  return repeated;
}
