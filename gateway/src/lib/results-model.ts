/**
 * The results submission (docs/api.md, POST /operator/jobs/{experiment_id}/submit) and the
 * results record (docs/api.md, Results) as the OpenAPI document describes them.
 *
 * The experiments service owns both: it validates the submission, decodes the base64 files
 * into its blob store and writes the record with signed, short-lived file URLs. The gateway
 * streams the submission to it (./results-upload.ts) without validating it by these schemas:
 * they only document the model.
 */
import { z } from "@hono/zod-openapi";
import { documentationOf } from "./experiment-request.js";

// Documentation only: turned into JSON Schema once, never used to parse.
const d = z;

const measurement = d
  .object({
    metric: d.string().describe("What was measured, as named in the acceptance criteria (e.g. MIC)"),
    value: d.union([d.number(), d.string()]).describe("The value (a number; a numeric string is accepted)"),
    unit: d.string().describe("Its unit, e.g. ug/mL"),
    condition: d
      .string()
      .describe("The group it belongs to (replicates of one condition share it; statistics group by it)"),
  })
  .describe("One measurement");

const statistics = d
  .object({
    test_used: d.string().describe("t_test, anova, mann_whitney, chi_square or fisher_exact"),
    p_value: d.number().min(0).max(1),
  })
  .describe("The statistical test the lab ran");

const ResultsSubmissionDocumentation = d
  .object({
    hypothesis_supported: d.boolean(),
    confidence_level: d.string().describe("e.g. high, medium, low"),
    summary: d.string().describe("What was found"),
    measurements: d.array(measurement),
    statistics,
    raw_data_uploads: d
      .array(
        d.object({
          name: d.string().describe("File name, e.g. plate1.csv"),
          format: d.string().describe("e.g. CSV, XLSX, AB1, FASTQ, PDF_REPORT"),
          content_base64: d.string().describe("The file's bytes, base64-encoded"),
        }),
      )
      .describe("Raw data files; they become raw_data_files with signed URLs"),
    documentation: d.object({
      photos: d
        .array(
          d.object({
            step: d.int().describe("The protocol step it documents"),
            image_base64: d.string().describe("The image's bytes, base64-encoded"),
            caption: d.string(),
          }),
        )
        .optional(),
      lab_notebook_base64: d.string().optional().describe("A scan of the lab notebook pages, base64-encoded"),
    }),
    notes: d.string().optional().describe("Operator notes (operator_notes in the results record)"),
  })
  .describe(
    "Results of the experiment (docs/api.md). The body may be up to 40 MiB (files are base64 inside it); the experiments service validates it and stores the files.",
  );

const fileLink = {
  url: d
    .string()
    .describe(
      "A signed download URL (GET /files/{file_id}?expires&signature); it stops working at urls_expire_at",
    ),
};

const ResultsRecordDocumentation = d
  .looseObject({
    experiment_id: d.string(),
    status: d.string().describe("The experiment's status: pending_approval, completed, disputed or resolved"),
    hypothesis_supported: d.boolean(),
    confidence_level: d.string(),
    summary: d.string(),
    structured_data: d.object({ measurements: d.array(measurement), statistics }),
    raw_data_files: d.array(
      d.object({
        name: d.string(),
        format: d.string(),
        ...fileLink,
        checksum_sha256: d
          .string()
          .describe("Lower-case hex SHA-256 of the file (the download's Repr-Digest)"),
      }),
    ),
    documentation: d.object({
      photos: d.array(d.object({ step: d.int(), ...fileLink, timestamp: d.string(), caption: d.string() })),
      lab_notebook_url: d.string().nullable().describe("Signed URL of the notebook scan, null without one"),
    }),
    operator_notes: d.string().nullable(),
    submitted_at: d.string().describe("When the lab submitted the results (ISO 8601)"),
    urls_expire_at: d
      .string()
      .nullable()
      .describe("When the signed file URLs stop working (ISO 8601); read the results again for new ones"),
  })
  .describe("The results record (docs/api.md, Results) with short-lived signed file URLs");

/** POST /operator/jobs/{experiment_id}/submit: any JSON object, described as the submission. */
export const ResultsSubmissionSchema = z
  .looseObject({})
  .openapi("ResultsSubmission", documentationOf(ResultsSubmissionDocumentation) as object);

/** GET /experiments/{experiment_id}/results (and a staff dispute's results). */
export const ResultsRecordSchema = z
  .looseObject({})
  .openapi("ResultsRecord", documentationOf(ResultsRecordDocumentation) as object);
