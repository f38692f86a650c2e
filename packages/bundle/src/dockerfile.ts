/** A Dockerfile read into stages of instructions, for policy checks (no build). */
export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  /** The FROM line's image. */
  image: string;
  /** The name after AS, if any. */
  name: string | undefined;
  instructions: Instruction[];
}

export interface ParsedDockerfile {
  /** Instructions before the first FROM (global ARGs). */
  preamble: Instruction[];
  stages: Stage[];
}

/** Joins `\` continuations, drops comments and blank lines, splits FROM ... AS ... stages. */
export function parseDockerfile(text: string): ParsedDockerfile {
  const lines: string[] = [];
  let pending = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (pending === "" && (line === "" || line.startsWith("#"))) continue;
    if (line.startsWith("#")) continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    lines.push(`${pending}${line}`.trim());
    pending = "";
  }
  if (pending !== "") lines.push(pending.trim());

  const parsed: ParsedDockerfile = { preamble: [], stages: [] };
  for (const line of lines) {
    const [keyword = "", ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(" ") };
    if (instruction.keyword === "FROM") {
      const words = rest.filter((word) => !word.startsWith("--"));
      const as = words.findIndex((word) => word.toUpperCase() === "AS");
      parsed.stages.push({
        image: words[0] ?? "",
        name: as >= 0 ? words[as + 1] : undefined,
        instructions: [],
      });
    } else {
      const stage = parsed.stages.at(-1);
      (stage ? stage.instructions : parsed.preamble).push(instruction);
    }
  }
  return parsed;
}

/** The alternatives of the first `case "$<variable>" in a|b|c) ;;` branch in RUN instructions. */
export function caseAlternatives(stage: Stage, variable: string): string[] {
  const pattern = new RegExp(`case\\s+"?\\$\\{?${variable}\\}?"?\\s+in\\s+([^)]+)\\)`);
  for (const instruction of stage.instructions) {
    if (instruction.keyword !== "RUN") continue;
    const match = pattern.exec(instruction.args);
    if (match) return match[1]!.split("|").map((name) => name.trim());
  }
  return [];
}
