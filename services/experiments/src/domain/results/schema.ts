/**
 * zod schema of the operator's results submission (docs/api.md "Operators",
 * POST /operator/jobs/{experiment_id}/submit), built for a set of limits.
 *
 * File contents are plain strings here: they are sized, validated and decoded apart
 * (./parse-submission.ts), so that an oversized upload is refused before any work on it.
 * Objects are strict (an unknown field is invalid_value, as for experiment requests, D19).
 * Free text is trimmed; lengths count Unicode code points.
 */
import { CONFIDENCE_LEVELS } from "@petri/contracts/vocabulary";
import { z } from "zod";

import { fileNameProblem } from "./file-names.js";
import { FORMAT_PATTERN } from "./file-types.js";
import type { ResultLimits } from "./limits.js";

const codePoints = (text: string): number => [...text].length;

/** Required text: trimmed, 1..max characters. */
function requiredText(max: number) {
  return z
    .string()
    .trim()
    .min(1)
    .refine((text) => codePoints(text) <= max, { error: `must be at most ${max} characters` });
}

/** Optional text: trimmed, at most max characters; empty counts as absent. */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .refine((text) => codePoints(text) <= max, { error: `must be at most ${max} characters` })
    .transform((text) => (text === "" ? undefined : text))
    .optional();
}

export function submissionSchema(limits: ResultLimits) {
  const measurement = z.strictObject({
    metric: requiredText(limits.maxMetricChars),
    value: z.number(),
    unit: optionalText(limits.maxUnitChars),
    condition: optionalText(limits.maxConditionChars),
  });

  const statistics = z.strictObject({
    // Any name: the acceptance evaluation recognises the five docs/api.md tests and their usual spellings
    // and reports any other test as not recomputable rather than refusing the results.
    test_used: requiredText(limits.maxTestNameChars),
    p_value: z.number().min(0).max(1).optional(),
  });

  const rawDataUpload = z.strictObject({
    name: z.string().superRefine((name, ctx) => {
      const problem = fileNameProblem(name, limits.maxFileNameChars);
      if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
    }),
    format: z
      .string()
      .regex(FORMAT_PATTERN, { error: 'must be a file format such as "csv", "xlsx", "fcs" or "pdf"' })
      .transform((format) => format.toLowerCase()),
    content_base64: z.string(),
  });

  const step = z.union(
    [
      z.number().int().min(1).max(1_000_000),
      z
        .string()
        .trim()
        .min(1)
        .refine((label) => codePoints(label) <= limits.maxStepLabelChars),
    ],
    {
      error: `must be a step number (a whole number of at least 1) or a step label of 1 to ${limits.maxStepLabelChars} characters`,
    },
  );

  const photo = z.strictObject({
    step: step.optional(),
    image_base64: z.string(),
    caption: optionalText(limits.maxCaptionChars),
  });

  const documentation = z.strictObject({
    photos: z.array(photo).max(limits.maxPhotos).optional(),
    lab_notebook_base64: z.string().optional(),
  });

  return z.strictObject({
    hypothesis_supported: z.boolean(),
    confidence_level: z.string().trim().toLowerCase().pipe(z.enum(CONFIDENCE_LEVELS)),
    summary: requiredText(limits.maxSummaryChars),
    measurements: z.array(measurement).max(limits.maxMeasurements).optional(),
    statistics: statistics.optional(),
    raw_data_uploads: z.array(rawDataUpload).max(limits.maxRawFiles).optional(),
    documentation: documentation.optional(),
    notes: optionalText(limits.maxNotesChars),
  });
}

export type SubmissionBody = z.output<ReturnType<typeof submissionSchema>>;
