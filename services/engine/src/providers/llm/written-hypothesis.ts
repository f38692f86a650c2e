/**
 * What the language model must answer, twice over: a JSON Schema for the server's structured
 * output (kept to the keywords every OpenAI-compatible server enforces, so a strict server
 * accepts it), and the zod schema the reply is checked against (with the bounds, and the
 * rule that the text cites nothing but the numbered sources it was given). Pure.
 */
import { type JsonReplyCheck, checkJsonReply } from "@petri/llm";
import { z } from "zod";
import { EXPERIMENT_TYPES } from "@petri/contracts/vocabulary";
import type { WrittenHypothesis } from "../../domain/generation.js";

export const STATEMENT_MAX_CHARS = 1_000;
export const RATIONALE_MAX_CHARS = 2_000;

/** The reply's shape as sent in response_format (strict mode: every key required, null for none). */
const replyShapeSchema = z.object({
  statement: z.string().describe("A testable, falsifiable hypothesis in one or two sentences."),
  null_hypothesis: z.string().describe("The null hypothesis the experiment would test against."),
  rationale: z
    .string()
    .describe("Why the hypothesis is plausible; cite only the numbered sources given, as [1], [2]."),
  experiment_type: z
    .enum(EXPERIMENT_TYPES)
    .nullable()
    .describe("The experiment type that would test the hypothesis, or null when unsure."),
});

export const REPLY_SCHEMA_NAME = "written_hypothesis";

/** The JSON Schema of the reply for `response_format: {type: "json_schema"}`. */
export function replyJsonSchema(): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(replyShapeSchema) as Record<string, unknown>;
  return schema;
}

const DOI_OR_URL = /\b10\.\d{4,9}\/\S+|\bdoi:|\bhttps?:\/\/|\bwww\./i;

function boundedText(maxChars: number) {
  return z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(maxChars, `must be at most ${maxChars} characters`)
    .refine((text) => !DOI_OR_URL.test(text), "must not contain DOIs or URLs; cite given sources as [n]");
}

/** The reply's check; `sourceCount` is how many sources the prompt numbered. */
export function replySchema(sourceCount: number): z.ZodType<WrittenHypothesis> {
  return z
    .object({
      statement: boundedText(STATEMENT_MAX_CHARS),
      null_hypothesis: boundedText(STATEMENT_MAX_CHARS),
      rationale: boundedText(RATIONALE_MAX_CHARS),
      experiment_type: z
        .enum(EXPERIMENT_TYPES, { error: `must be null or one of ${EXPERIMENT_TYPES.join(", ")}` })
        .nullish(),
    })
    .superRefine((reply, ctx) => {
      for (const key of ["statement", "null_hypothesis", "rationale"] as const) {
        for (const match of reply[key].matchAll(/\[(\d+)\]/g)) {
          const number = Number(match[1]);
          if (number < 1 || number > sourceCount)
            ctx.addIssue({
              code: "custom",
              path: [key],
              message:
                sourceCount === 0
                  ? `cites [${number}] but no sources were given; cite nothing`
                  : `cites [${number}] but only sources [1] to [${sourceCount}] were given`,
            });
        }
      }
    })
    .transform(({ experiment_type, ...text }): WrittenHypothesis =>
      experiment_type ? { ...text, experiment_type } : text,
    );
}

export type ReplyCheck = JsonReplyCheck<WrittenHypothesis>;

/** Checks a model reply; `sourceCount` is how many sources the prompt numbered. */
export function checkReply(content: string | null | undefined, sourceCount: number): ReplyCheck {
  return checkJsonReply(content, replySchema(sourceCount));
}
