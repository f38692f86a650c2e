import { describe, expect, it } from "vitest";

import { evaluateAcceptance } from "../acceptance/index.js";
import { parseSubmission, type ParsedSubmission } from "./parse-submission.js";
import { buildResultsRecord } from "./results-record.js";
import {
  readStoredResults,
  StoredResultsError,
  toAcceptanceResults,
  toStoredResults,
  type StoredResults,
} from "./stored-results.js";
import { CSV_SHA256, fullBody, minimalBody } from "../../../test/support/results.js";

const SUBMITTED_AT = new Date("2026-12-03T14:05:00.000Z");
const FILE_IDS = ["fil_raw1", "fil_raw2", "fil_photo1", "fil_photo2", "fil_notebook"];

function parsed(body: Record<string, unknown>): ParsedSubmission {
  const result = parseSubmission(body);
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.submission;
}

/** What the use case does: store, then read back from a jsonb column (JSON text round trip). */
function storedFull(): StoredResults {
  const stored = toStoredResults(parsed(fullBody()), { fileIds: FILE_IDS, submittedAt: SUBMITTED_AT });
  return readStoredResults(JSON.parse(JSON.stringify(stored)));
}

const urlFor = (fileId: string) => `/files/${fileId}?expires=1&signature=s`;

describe("stored results", () => {
  it("keep everything but the file bytes and survive a JSON round trip", () => {
    const stored = storedFull();
    expect(stored).toMatchObject({
      version: 1,
      hypothesisSupported: false,
      confidenceLevel: "medium",
      summary: "No difference between treated and control wells.",
      statistics: { testUsed: "t_test", pValue: 0.21 },
      notes: "Incubator door was opened once at 10 h.",
    });
    expect(stored.measurements).toHaveLength(3);
    expect(stored.files[0]).toEqual({
      fileId: "fil_raw1",
      kind: "raw_data",
      name: "plate-reader export.csv",
      format: "csv",
      contentType: "text/csv",
      sha256: CSV_SHA256,
      sizeBytes: 25,
      createdAt: "2026-12-03T14:05:00.000Z",
    });
    expect(stored.files[2]).toMatchObject({
      fileId: "fil_photo1",
      kind: "photo",
      step: 3,
      caption: "Plate after 18 h",
    });
    expect(JSON.stringify(stored)).not.toContain("base64");
    expect(readStoredResults(JSON.stringify(stored))).toEqual(stored);
  });

  it("need exactly one distinct file id per file", () => {
    const submission = parsed(fullBody());
    expect(() =>
      toStoredResults(submission, { fileIds: FILE_IDS.slice(1), submittedAt: SUBMITTED_AT }),
    ).toThrow(/one file id per file/);
    expect(() =>
      toStoredResults(submission, { fileIds: ["a", "a", "b", "c", "d"], submittedAt: SUBMITTED_AT }),
    ).toThrow(/distinct/);
  });

  it.each([
    ["not JSON", "{"],
    ["another version", { ...storedFull(), version: 2 }],
    ["a missing summary", { ...storedFull(), summary: undefined }],
    ["a bad checksum", { ...storedFull(), files: [{ ...storedFull().files[0], sha256: "XYZ" }] }],
    ["an extra field", { ...storedFull(), surprise: true }],
    ["null", null],
  ])("refuse stored JSON with %s", (_label, value) => {
    expect(() => readStoredResults(value)).toThrow(StoredResultsError);
  });
});

describe("buildResultsRecord", () => {
  it("builds the docs/api.md results record with signed urls from the stored submission", () => {
    const stored = storedFull();
    const record = buildResultsRecord({
      experimentId: "exp_1",
      status: "pending_approval",
      submittedAt: SUBMITTED_AT,
      results: stored,
      files: stored.files,
      urlFor,
    });
    expect(record).toEqual({
      experiment_id: "exp_1",
      status: "pending_approval",
      hypothesis_supported: false,
      confidence_level: "medium",
      summary: "No difference between treated and control wells.",
      structured_data: {
        measurements: [
          { metric: "OD600", value: 0.41, unit: "AU", condition: "treated" },
          { metric: "OD600", value: 0.44, unit: "AU", condition: "control" },
          { metric: "MIC", value: 8, unit: null, condition: null },
        ],
        statistics: { test_used: "t_test", p_value: 0.21 },
      },
      raw_data_files: [
        {
          name: "plate-reader export.csv",
          format: "csv",
          url: "/files/fil_raw1?expires=1&signature=s",
          checksum_sha256: CSV_SHA256,
          size_bytes: 25,
        },
        {
          name: "cytometry.fcs",
          format: "fcs",
          url: "/files/fil_raw2?expires=1&signature=s",
          checksum_sha256: stored.files[1]!.sha256,
          size_bytes: 16,
        },
      ],
      documentation: {
        photos: [
          {
            step: 3,
            url: "/files/fil_photo1?expires=1&signature=s",
            timestamp: "2026-12-03T14:05:00.000Z",
            caption: "Plate after 18 h",
          },
          {
            step: "harvest",
            url: "/files/fil_photo2?expires=1&signature=s",
            timestamp: "2026-12-03T14:05:00.000Z",
            caption: null,
          },
        ],
        lab_notebook_url: "/files/fil_notebook?expires=1&signature=s",
      },
      operator_notes: "Incubator door was opened once at 10 h.",
      submitted_at: "2026-12-03T14:05:00.000Z",
    });
  });

  it("uses null for what was not sent and accepts database rows (Date times, null step and caption)", () => {
    const stored = toStoredResults(parsed(minimalBody()), { fileIds: [], submittedAt: SUBMITTED_AT });
    const record = buildResultsRecord({
      experimentId: "exp_2",
      status: "completed",
      submittedAt: "2026-12-03T14:05:00Z",
      results: stored,
      files: [
        {
          fileId: "fil_p",
          kind: "photo",
          name: "photo-1.png",
          format: "png",
          sha256: "0".repeat(64),
          sizeBytes: 67,
          step: null,
          caption: null,
          createdAt: SUBMITTED_AT,
        },
      ],
      urlFor,
    });
    expect(record.structured_data).toEqual({ measurements: [], statistics: null });
    expect(record.raw_data_files).toEqual([]);
    expect(record.documentation).toEqual({
      photos: [{ step: null, url: urlFor("fil_p"), timestamp: SUBMITTED_AT.toISOString(), caption: null }],
      lab_notebook_url: null,
    });
    expect(record.operator_notes).toBeNull();
    expect(record.submitted_at).toBe("2026-12-03T14:05:00.000Z");
  });

  it("asks urlFor once per file, so each read signs fresh urls", () => {
    const stored = storedFull();
    const asked: string[] = [];
    buildResultsRecord({
      experimentId: "exp_1",
      status: "disputed",
      submittedAt: SUBMITTED_AT,
      results: stored,
      files: stored.files,
      urlFor: (id) => {
        asked.push(id);
        return id;
      },
    });
    expect(asked).toEqual(FILE_IDS);
  });
});

describe("toAcceptanceResults", () => {
  it("gives the acceptance evaluation the measurements, statistics, summary and notes", () => {
    const stored = storedFull();
    const input = toAcceptanceResults(stored);
    expect(input).toEqual({
      structured_data: {
        measurements: [
          { metric: "OD600", value: 0.41, unit: "AU", condition: "treated" },
          { metric: "OD600", value: 0.44, unit: "AU", condition: "control" },
          { metric: "MIC", value: 8, unit: null, condition: null },
        ],
        statistics: { test_used: "t_test", p_value: 0.21 },
      },
      summary: "No difference between treated and control wells.",
      operator_notes: "Incubator door was opened once at 10 h.",
    });
    const evaluation = evaluateAcceptance(
      {
        success_conditions: [{ metric: "MIC", operator: "lte", threshold: 16, unit: "" }],
        statistical_requirements: { significance_level: 0.05, statistical_test: "t_test" },
      },
      input,
    );
    expect(evaluation.successConditions[0]!.outcome).toBe("met");
    expect(evaluation.significance.reportedPValue).toBe(0.21);
    expect(evaluation.significance.reported).toBe("not_significant");
  });

  it("has no statistics when none were submitted", () => {
    const stored = toStoredResults(parsed(minimalBody()), { fileIds: [], submittedAt: SUBMITTED_AT });
    expect(toAcceptanceResults(stored).structured_data?.statistics).toBeNull();
    expect(evaluateAcceptance({}, toAcceptanceResults(stored)).significance.reported).toBe("missing");
  });
});
