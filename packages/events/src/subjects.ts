/**
 * NATS subject matching: tokens are separated by ".", "*" matches exactly one token and
 * ">" (only as the last token) matches one or more remaining tokens.
 */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split(".");
  const s = subject.split(".");
  for (let i = 0; i < f.length; i += 1) {
    const token = f[i];
    if (token === ">") return i === f.length - 1 && s.length > i;
    if (i >= s.length) return false;
    if (token !== "*" && token !== s[i]) return false;
  }
  return f.length === s.length;
}

/**
 * A regular expression (the same in JavaScript and PostgreSQL) matching exactly the valid
 * subjects a filter matches: "*" one token, ">" (last) one or more tokens.
 */
export function filterPattern(filter: string): string {
  const tokens = filter.split(".").map((token, index, all) => {
    if (token === "*") return "[^.]+";
    if (token === ">" && index === all.length - 1) return "[^.]+(\\.[^.]+)*";
    return token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  });
  return `^${tokens.join("\\.")}$`;
}

/** A valid publish subject: non-empty tokens, no wildcards, no whitespace. */
export function isValidSubject(subject: string): boolean {
  return subject.length > 0 && subject.split(".").every((t) => t.length > 0 && !/[\s*>]/.test(t));
}

/** A valid filter: non-empty tokens; "*" and ">" only as whole tokens; ">" only last. */
export function isValidFilter(filter: string): boolean {
  const tokens = filter.split(".");
  return tokens.every(
    (t, i) =>
      t.length > 0 &&
      !/\s/.test(t) &&
      (t === "*" || (t === ">" && i === tokens.length - 1) || !/[*>]/.test(t)),
  );
}
