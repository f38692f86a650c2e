/**
 * Reading a model's JSON reply and asking for a repair. A reply is accepted only when it parses
 * and passes the caller's zod schema and extra check (some servers accept a schema without
 * enforcing it); otherwise the problems, in plain "path: message" lines, are what the repair
 * request quotes back to the model. Pure.
 */
import type { z } from "zod";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export type JsonReplyCheck<T> = { ok: true; value: T } | { ok: false; problems: string[] };

/** How many problems are fed back to the model in the repair request. */
export const MAX_PROBLEMS_REPORTED = 10;
const PROBLEM_MAX_CHARS = 300;
/** Keeps a repaired conversation within bounds when the rejected reply was huge. */
const REJECTED_REPLY_MAX_CHARS = 4_000;

/** Models sometimes wrap JSON in a Markdown fence even when asked not to; accept that much. */
function withoutCodeFence(text: string): string {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(text.trim());
  return fenced ? fenced[1]! : text;
}

function bounded(problem: string): string {
  return problem.length <= PROBLEM_MAX_CHARS ? problem : `${problem.slice(0, PROBLEM_MAX_CHARS - 1)}…`;
}

/** Parses `content` as JSON and checks it with `schema`, then with `check` (which lists problems). */
export function checkJsonReply<T>(
  content: string | null | undefined,
  schema: z.ZodType<T>,
  check?: (value: T) => readonly string[],
): JsonReplyCheck<T> {
  if (content === null || content === undefined || content.trim() === "")
    return { ok: false, problems: ["the reply was empty; answer with the JSON object"] };
  let json: unknown;
  try {
    json = JSON.parse(withoutCodeFence(content));
  } catch {
    return { ok: false, problems: ["the reply was not valid JSON; answer with the JSON object only"] };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues
        .slice(0, MAX_PROBLEMS_REPORTED)
        .map((issue) =>
          bounded(`${issue.path.length > 0 ? issue.path.join(".") : "(reply)"}: ${issue.message}`),
        ),
    };
  const problems = check?.(parsed.data) ?? [];
  if (problems.length > 0)
    return { ok: false, problems: problems.slice(0, MAX_PROBLEMS_REPORTED).map(bounded) };
  return { ok: true, value: parsed.data };
}

/** The conversation for the one repair attempt: the rejected reply and what was wrong with it. */
export function buildRepairMessages(
  original: readonly ChatMessage[],
  rejectedReply: string,
  problems: readonly string[],
): ChatMessage[] {
  return [
    ...original,
    { role: "assistant", content: rejectedReply.slice(0, REJECTED_REPLY_MAX_CHARS) },
    {
      role: "user",
      content: [
        "That reply was rejected:",
        ...problems.map((problem) => `- ${problem}`),
        "Answer again with the corrected JSON object only, following every rule.",
      ].join("\n"),
    },
  ];
}

/** The first problems, briefly: enough to tell a broken model from a broken prompt. */
export function summariseProblems(problems: readonly string[]): string {
  const text = problems.slice(0, 3).join("; ");
  return text.length <= 300 ? text : `${text.slice(0, 299)}…`;
}
