import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  ConcentrationUnit,
  InterpretIntakeResponseSchema,
  SubmissionSchema,
} from "@petri/contracts/cloudlabs";
import { ExperimentType } from "@petri/contracts/experiments";
import { describe, expect, it } from "vitest";
import { interpretationJson, submissionJson } from "./cloud-labs-json.js";

const results = {
  simulated: true,
  raw_data_url: "/cloud-labs/submissions/cls_1/raw-data",
  mic: { "PX-17": "4 µg/mL" },
};
const protocol = { refs: { plate: { new: "96-flat", discard: true } }, instructions: [{ op: "seal" }] };
const submission = (fields: Parameters<typeof create<typeof SubmissionSchema>>[1]) =>
  create(SubmissionSchema, { id: "cls_1", createdAt: timestampFromDate(new Date(0)), ...fields });

describe("a submission's documents", () => {
  it("are its JSON text; no results are null", () => {
    const json = submissionJson(submission({ translatedProtocolJson: JSON.stringify(protocol) }));
    expect(JSON.stringify(json.translated_protocol)).toBe(JSON.stringify(protocol));
    expect(json.results).toBeNull();
    expect(
      submissionJson(submission({ translatedProtocolJson: "{}", resultsJson: JSON.stringify(results) }))
        .results,
    ).toEqual(results);
  });
});

describe("an interpretation (D355)", () => {
  const reading = {
    experiment_type: "ZONE_OF_INHIBITION",
    parameters: {
      organisms: [{ name: "E. coli", strain: null }],
      compounds: [{ name: "PX-17", concentrations: [30, 10], unit: "µg/disk" }],
      incubation_hours: null,
      replicates: 3,
      detection_method: null,
    },
    confidence: 0.5,
    notes: ["Incubation not stated."],
  };

  it("is written from the message, absent values as null, when the service sent it", () => {
    const answer = create(InterpretIntakeResponseSchema, {
      interpretationJson: '{"stale":true}',
      interpretation: {
        experimentType: ExperimentType.ZONE_OF_INHIBITION,
        parameters: {
          organisms: [{ name: "E. coli" }],
          compounds: [{ name: "PX-17", concentrations: [30, 10], unit: ConcentrationUnit.UG_PER_DISK }],
          replicates: 3,
        },
        confidence: 0.5,
        notes: ["Incubation not stated."],
      },
    });
    expect(JSON.stringify(interpretationJson(answer))).toBe(JSON.stringify(reading));
  });

  it("is the JSON text from a service built before the message", () => {
    const answer = create(InterpretIntakeResponseSchema, { interpretationJson: JSON.stringify(reading) });
    expect(interpretationJson(answer)).toEqual(reading);
  });
});
