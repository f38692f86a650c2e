import type { DescEnum } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { file_petri_cloudlabs_v1_interpretation } from "./gen/petri/cloudlabs/v1/interpretation_pb.js";
import { file_petri_experiments_v1_vocabulary } from "./gen/petri/experiments/v1/vocabulary_pb.js";
import { file_petri_marketplace_v1_vocabulary } from "./gen/petri/marketplace/v1/vocabulary_pb.js";
import {
  OperatorProfileSchema,
  VerificationRecordSchema,
} from "./gen/petri/marketplace/v1/operator_profile_pb.js";
import {
  AcceptanceEvaluation_AgreementSchema,
  file_petri_experiments_v1_results,
  ResultsRecord_PhotoSchema,
} from "./gen/petri/experiments/v1/results_pb.js";
import {
  ExperimentRequest_CommunicationPreferencesSchema,
  ExperimentRequest_ProtocolSchema,
  ExperimentRequest_StepSchema,
} from "./gen/petri/experiments/v1/request_pb.js";
import { file_petri_experiments_v1_request_sections } from "./gen/petri/experiments/v1/request_sections_pb.js";
import { file_petri_experiments_v1_request_vocabulary } from "./gen/petri/experiments/v1/request_vocabulary_pb.js";
import {
  ABSENT_AS_NULL,
  RestJsonError,
  exactRestMessage,
  fittingRestMessage,
  fromRestJson,
  restSpellings,
  toRestJson,
} from "./rest-json.js";
import * as vocabulary from "./vocabulary.js";

const upperSnake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
const enums: DescEnum[] = [
  file_petri_experiments_v1_vocabulary,
  file_petri_marketplace_v1_vocabulary,
  file_petri_experiments_v1_results,
  file_petri_experiments_v1_request_vocabulary,
  file_petri_experiments_v1_request_sections,
  file_petri_cloudlabs_v1_interpretation,
].flatMap((file) => file.enums);

const record = {
  identity_verified: true,
  institution_verified: true,
  supervisor_approved: false,
  competencies_verified: ["MIC_MBC_ASSAY", "CUSTOM"],
  equipment_verified: false,
  verified_equipment: [],
  max_bsl: "BSL-2",
  material_approvals: { human_samples: true, animal_samples: false, hazardous_chemicals: false },
  last_verification_date: "2026-11-01",
};

describe("REST JSON of a message", () => {
  it.each(enums.map((e) => [e.typeName, e] as const))(
    "%s: spelled as the generated vocabulary spells it",
    (_, e) => {
      const byName = (vocabulary as Record<string, unknown>)[`${upperSnake(e.name)}_BY_NAME`] as Record<
        string,
        number
      >;
      const spellings = restSpellings(e);
      expect([...spellings.toName.keys()]).toEqual(Object.keys(byName));
      expect(
        [...spellings.toName.values()].map((name) => e.values.find((v) => v.name === name)?.number),
      ).toEqual(Object.values(byName));
    },
  );

  it("maps REST spellings to enum values and back, snake_case names, implicit values shown", () => {
    const message = fromRestJson(VerificationRecordSchema, { ...record, notes: null });
    expect(message.maxBsl).toBe(vocabulary.BSL_LEVEL_BY_NAME["BSL-2"]);
    expect(message.competenciesVerified).toEqual([
      vocabulary.EXPERIMENT_TYPE_BY_NAME.MIC_MBC_ASSAY,
      vocabulary.EXPERIMENT_TYPE_BY_NAME.CUSTOM,
    ]);
    expect(message.notes).toBeUndefined();
    expect(toRestJson(VerificationRecordSchema, message)).toEqual(record);
  });

  it("writes the unspecified enum value as an absent field", () => {
    const { max_bsl: _, ...withoutBsl } = record;
    const json = toRestJson(VerificationRecordSchema, fromRestJson(VerificationRecordSchema, withoutBsl));
    expect(json).toEqual(withoutBsl);
  });

  it("refuses camelCase names, enum value names, wrong types and non-objects, with the path", () => {
    const refused = (json: unknown) => {
      try {
        fromRestJson(VerificationRecordSchema, json as never);
      } catch (error) {
        return error instanceof RestJsonError ? error.path : error;
      }
      return "accepted";
    };
    expect(refused({ ...record, identityVerified: true })).toBe("identityVerified");
    expect(refused({ ...record, max_bsl: "BSL_LEVEL_BSL_2" })).toBe("max_bsl");
    expect(refused({ ...record, competencies_verified: "CUSTOM" })).toBe("competencies_verified");
    expect(refused({ ...record, material_approvals: [] })).toBe("material_approvals");
    expect(refused({ ...record, identity_verified: "yes" })).toBe("");
    expect(refused([])).toBe("");
  });

  it("keeps map keys as they are and converts the map's values", () => {
    const terms = { pricing: { CUSTOM: { min_usd: 1, typical_usd: 2, max_usd: 3.5 } } };
    const message = fromRestJson(OperatorProfileSchema, { commercial_terms: terms });
    expect(message.commercialTerms?.pricing.CUSTOM?.maxUsd).toBe(3.5);
    expect(toRestJson(OperatorProfileSchema, message).commercial_terms).toEqual({
      ...terms,
      turnaround_days: {},
      minimum_order_usd: 0,
    });
  });
});

describe("REST JSON that writes absent values as null (the results record, D341)", () => {
  const photo = { step: null, url: "https://files/1", timestamp: "2026-11-01T10:00:00.000Z", caption: null };

  it("writes an unset optional field or message as null, and a well-known type as its own JSON", () => {
    const message = fromRestJson(ResultsRecord_PhotoSchema, photo);
    expect(toRestJson(ResultsRecord_PhotoSchema, message)).toEqual({
      url: photo.url,
      timestamp: photo.timestamp,
    });
    expect(toRestJson(ResultsRecord_PhotoSchema, message, { absent: "null" })).toEqual(photo);
    for (const step of [3, "lysis"]) {
      const stepped = fromRestJson(ResultsRecord_PhotoSchema, { ...photo, step });
      expect(toRestJson(ResultsRecord_PhotoSchema, stepped, { absent: "null" })).toEqual({ ...photo, step });
    }
  });

  it("gives a message only when it writes back exactly the same JSON", () => {
    expect(exactRestMessage(ResultsRecord_PhotoSchema, photo, ABSENT_AS_NULL)?.url).toBe(photo.url);
    // Without nulls the message would drop the null keys: not exact.
    expect(exactRestMessage(ResultsRecord_PhotoSchema, photo)).toBeUndefined();
    expect(exactRestMessage(ResultsRecord_PhotoSchema, { ...photo, colour: "blue" })).toBeUndefined();
    // A non-finite number is null in JSON, which a double field cannot say.
    const agreement = { reported: 0.01, recomputed: Number.NaN, difference: 0, tolerance: 0, agrees: false };
    expect(exactRestMessage(AcceptanceEvaluation_AgreementSchema, agreement)).toBeUndefined();
  });

  it("gives a fitting message whatever JSON it writes back, and none for a document that does not fit", () => {
    // Keys in another order (as a jsonb column returns them): fits, though not exactly.
    const reordered = { timestamp: photo.timestamp, url: photo.url, step: null, caption: null };
    expect(Object.keys(photo)).not.toEqual(Object.keys(reordered));
    expect(fittingRestMessage(ResultsRecord_PhotoSchema, reordered)?.url).toBe(photo.url);
    expect(exactRestMessage(ResultsRecord_PhotoSchema, reordered, ABSENT_AS_NULL)).toBeUndefined();
    expect(fittingRestMessage(ResultsRecord_PhotoSchema, { ...photo, colour: "blue" })).toBeUndefined();
    expect(fittingRestMessage(ResultsRecord_PhotoSchema, "not an object")).toBeUndefined();
  });
});

describe("a list REST may leave out (rest_list, the experiment request)", () => {
  const head = { step_number: 1, action: "Seed the plate" };
  const tail = { expected_outcome: "Cells attached" };

  it("writes the list as an array, and an absent list as no key, not as []", () => {
    for (const critical of [undefined, [], ["37 °C", "5% CO2"]]) {
      const json = { ...head, ...(critical === undefined ? {} : { critical_parameters: critical }), ...tail };
      const message = fromRestJson(ExperimentRequest_StepSchema, json);
      expect(message.criticalParameters?.values).toEqual(critical);
      expect(JSON.stringify(toRestJson(ExperimentRequest_StepSchema, message))).toBe(JSON.stringify(json));
    }
  });

  it("spells an enum list's items and refuses a non-array with the path", () => {
    const prefs = { notification_events: ["claimed", "completed"], preferred_contact: "webhook" };
    const message = fromRestJson(ExperimentRequest_CommunicationPreferencesSchema, prefs);
    expect(toRestJson(ExperimentRequest_CommunicationPreferencesSchema, message)).toEqual(prefs);
    expect(() =>
      fromRestJson(ExperimentRequest_CommunicationPreferencesSchema, { notification_events: "claimed" }),
    ).toThrow("notification_events: must be an array");
    expect(() =>
      fromRestJson(ExperimentRequest_CommunicationPreferencesSchema, { notification_events: ["sent"] }),
    ).toThrow("notification_events[0]: must be one of");
  });
});

describe("REST JSON in PostgreSQL's jsonb key order (the stored experiment request, D321)", () => {
  it("orders every object's keys shorter first, then by their bytes", () => {
    const step = {
      step_number: 2,
      action: "Read",
      critical_parameters: ["gain 100"],
      expected_outcome: "OD",
    };
    const message = fromRestJson(ExperimentRequest_StepSchema, step);
    // PostgreSQL: select '{...}'::jsonb::text lists action, step_number, expected_outcome, critical_parameters.
    expect(Object.keys(toRestJson(ExperimentRequest_StepSchema, message, { keys: "jsonb" }))).toEqual([
      "action",
      "step_number",
      "expected_outcome",
      "critical_parameters",
    ]);
    expect(exactRestMessage(ExperimentRequest_StepSchema, step, { keys: "jsonb" })).toBeUndefined();
  });

  it("orders keys beyond ASCII by their UTF-8 bytes, as PostgreSQL does", () => {
    // "é" is one UTF-16 unit but two bytes: jsonb puts it after the two-byte "zz", and "ä"
    // (C3 A4) before "é" (C3 A9).
    const protocol = { template_parameters: { é: 1, zz: 2, a: 3, ä: 4 } };
    const message = fromRestJson(ExperimentRequest_ProtocolSchema, protocol);
    const written = toRestJson(ExperimentRequest_ProtocolSchema, message, { keys: "jsonb" });
    expect(Object.keys(written.template_parameters as object)).toEqual(["a", "zz", "ä", "é"]);
  });
});
