/**
 * Names of uploaded raw data files. A name is shown to the requester and becomes the download's
 * file name, so it is refused (never silently repaired) when it could address a path, hide its
 * real extension or break a header: path separators, "..", control and invisible formatting
 * characters (right-to-left overrides), characters Windows forbids, surrounding spaces, and more
 * than the limit of characters.
 */

const CONTROL = /\p{Cc}/u;
// Unicode "format" characters (bidi overrides and isolates, zero-width joiners, BOM…) and lone
// surrogates: invisible, so "report\u202Efdp.exe" would read as "reportexe.pdf".
const INVISIBLE = /[\p{Cf}\p{Cs}]/u;
const WINDOWS_RESERVED = /[<>:"|?*]/;

/** Why `name` is not an acceptable file name, as a predicate; undefined when it is fine. */
export function fileNameProblem(name: string, maxChars: number): string | undefined {
  if (name.length === 0) return "must not be empty";
  if ([...name].length > maxChars) return `must be at most ${maxChars} characters`;
  if (name.trim() !== name) return "must not start or end with spaces";
  if (name.includes("/") || name.includes("\\")) return "must not contain a path separator (/ or \\)";
  if (name.includes("..")) return 'must not contain ".."';
  if (name === ".") return 'must not be "."';
  if (CONTROL.test(name)) return "must not contain control characters";
  if (INVISIBLE.test(name)) return "must not contain invisible formatting characters";
  if (WINDOWS_RESERVED.test(name)) return 'must not contain any of < > : " | ? *';
  return undefined;
}
