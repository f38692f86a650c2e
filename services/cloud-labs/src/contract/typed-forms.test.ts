/**
 * D-NEW-1: every interpretation and translation the service produces for the intake fixtures,
 * and the sandbox's results for them, travel typed, and the typed form, once over the wire,
 * writes exactly the JSON text sent beside it (what gateways built before read): REST is the
 * same whichever form a gateway reads.
 */
import {
  type DescMessage,
  type JsonObject,
  type MessageShape,
  create,
  fromBinary,
  toBinary,
} from "@bufbuild/protobuf";
import {
  IntakeInterpretationSchema,
  InterpretIntakeResponseSchema,
  SubmissionSchema,
  TranslationSchema,
} from "@petri/contracts/cloudlabs";
import { ABSENT_AS_NULL, toRestJson } from "@petri/contracts/rest-json";
import { clientIntakes, fullRequests, specialRequests, validRequests } from "@petri/fixtures";
import { ValidationError } from "@petri/service-kit";
import { describe, expect, it } from "vitest";
import { type Translation, translateIntake } from "../app/translation.js";
import type { SubmissionRow } from "../db/schema.js";
import { interpretIntake } from "../domain/interpret/index.js";
import type { Interpretation } from "../domain/plan.js";
import { PROVIDERS } from "../domain/providers/index.js";
import { simulatedResults } from "../domain/simulated-results.js";
import { interpretationReplySchema } from "../interpret-llm/interpretation-reply.js";
import { interpretationForms } from "./interpretation-message.js";
import { submissionMessage, translationMessage } from "./submission-message.js";

const named = (prefix: string, fixtures: object) =>
  Object.entries(fixtures).map(([name, intake]): [string, unknown] => [`${prefix} ${name}`, intake]);
const intakes = [
  ...named("valid", validRequests),
  ...named("full", fullRequests),
  ...named("client", clientIntakes),
  ...named("special", specialRequests),
];

/** The message as a gateway receives it: encoded and decoded. */
const overTheWire = <Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>) =>
  fromBinary(schema, toBinary(schema, message));

/** A Struct field as protobuf-es gives it: the JSON object it says. */
const structText = (struct: JsonObject | undefined) =>
  struct === undefined ? "(unset)" : JSON.stringify(struct);

/** The interpretation's REST JSON as a gateway writes it from the typed field received. */
function receivedInterpretationText(interpretation: Interpretation): string {
  const sent = create(InterpretIntakeResponseSchema, {
    ...interpretationForms(interpretation),
    interpreter: "rules",
  });
  const received = overTheWire(InterpretIntakeResponseSchema, sent);
  expect(received.interpretationJson).toBe(JSON.stringify(interpretation));
  if (!received.interpretation) return "(unset)";
  return JSON.stringify(toRestJson(IntakeInterpretationSchema, received.interpretation, ABSENT_AS_NULL));
}

const rulesReadings = intakes.flatMap(([name, intake]) =>
  [undefined, ...PROVIDERS].flatMap((provider) => {
    const read = interpretIntake(structuredClone(intake), provider);
    return "problems" in read ? [] : [{ name: `${name} for ${provider?.id ?? "any lab"}`, ...read }];
  }),
);

function translationOf(intake: unknown, providerId: string): Translation | undefined {
  try {
    return translateIntake(structuredClone(intake), providerId);
  } catch (error) {
    if (error instanceof ValidationError) return undefined;
    throw error;
  }
}

const translations = intakes.flatMap(([name, intake]) =>
  PROVIDERS.flatMap((provider) => {
    const translation = translationOf(intake, provider.id);
    return translation ? [{ name: `${name} on ${provider.id}`, translation }] : [];
  }),
);

describe("the interpretation travels typed and writes its JSON text exactly", () => {
  it("for every reading of the fixture intakes by the rules, with and without a provider", () => {
    expect(rulesReadings.length).toBeGreaterThan(intakes.length);
    for (const { name, interpretation } of rulesReadings)
      expect(receivedInterpretationText(interpretation), name).toBe(JSON.stringify(interpretation));
  });

  it("for a language model's reading, checked by the reply schema (its keys in any order)", () => {
    for (const { name, interpretation } of rulesReadings) {
      const { replicates, ...parameters } = interpretation.parameters;
      // A model writes the reply's keys in its own order: replicates first, say.
      const reply = { ...interpretation, parameters: { replicates, ...parameters } };
      const checked = interpretationReplySchema().parse(JSON.parse(JSON.stringify(reply)));
      expect(JSON.stringify(checked), name).toBe(JSON.stringify(interpretation));
      expect(receivedInterpretationText(checked), name).toBe(JSON.stringify(checked));
    }
  });
});

describe("the protocol and a lab's results travel as a Struct and write their JSON text exactly", () => {
  it("for every translation of the fixture intakes on every provider that runs it", () => {
    expect(new Set(translations.map((t) => t.translation.protocolFormat))).toEqual(
      new Set(["autoprotocol", "sll"]),
    );
    for (const { name, translation } of translations) {
      const received = overTheWire(TranslationSchema, translationMessage(translation));
      expect(received.protocolJson, name).toBe(JSON.stringify(translation.protocol));
      expect(structText(received.protocol), name).toBe(received.protocolJson);
    }
  });

  it("for a submission of every translation, completed with the sandbox's results", () => {
    const at = new Date("2026-11-21T10:00:00.000Z");
    for (const { name, translation } of translations) {
      const row: SubmissionRow = {
        ...ROW,
        protocol_format: translation.protocolFormat,
        translated_protocol: translation.protocol as SubmissionRow["translated_protocol"],
        plan: translation.plan as unknown as SubmissionRow["plan"],
        results: simulatedResults(
          translation.plan,
          "/cloud-labs/submissions/cls_1/raw-data",
        ) as SubmissionRow["results"],
        created_at: at,
        next_check_at: at,
        updated_at: at,
      };
      const received = overTheWire(SubmissionSchema, submissionMessage(row));
      expect(structText(received.translatedProtocol), name).toBe(received.translatedProtocolJson);
      expect(structText(received.results), name).toBe(received.resultsJson);
      expect(received.resultsJson, name).toBe(JSON.stringify(row.results));
    }
  });

  it("leaves the results unset, and their text empty, until the lab gave them", () => {
    const { translation } = translations[0]!;
    const at = new Date("2026-11-21T10:00:00.000Z");
    const received = overTheWire(
      SubmissionSchema,
      submissionMessage({
        ...ROW,
        translated_protocol: translation.protocol as SubmissionRow["translated_protocol"],
        plan: {},
        results: null,
        created_at: at,
        next_check_at: at,
        updated_at: at,
      }),
    );
    expect(received.results).toBeUndefined();
    expect(received.resultsJson).toBe("");
  });
});

const ROW: Omit<
  SubmissionRow,
  "translated_protocol" | "plan" | "results" | "created_at" | "next_check_at" | "updated_at"
> = {
  id: "cls_1",
  owner_account_id: "acc_1",
  experiment_id: "exp_1",
  provider_id: "petri-microbiology-sandbox",
  adapter: "sandbox",
  provider_submission_id: "sbx_1",
  protocol_format: "autoprotocol",
  status: "completed",
  error: null,
  estimated_cost_cents: 15_000,
  turnaround_min_days: 3,
  turnaround_max_days: 5,
  cancel_requested: false,
  send_attempts: 1,
  lease_owner: null,
  lease_until: null,
  version: 4,
  submitted_at: null,
  started_at: null,
  completed_at: null,
};
