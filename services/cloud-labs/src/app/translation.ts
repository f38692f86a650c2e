/**
 * Intake -> protocol for one provider: interpret the intake (domain/interpret), check the plan
 * against the provider (domain/providers), generate the protocol in the provider's format
 * (domain/autoprotocol, domain/sll), check what was generated (the Autoprotocol schema and
 * semantic checker: a violation here is our bug, never sent to a lab), and price it. Pure.
 *
 * Refusals are ValidationErrors (422) naming the fields: an unreadable intake, a plan this
 * provider cannot run, a plan the format cannot express, or one too large to send.
 */
import { type FieldError, NotFoundError, ValidationError } from "@petri/service-kit";
import {
  ProtocolTooLargeError,
  checkAutoprotocol,
  schemaViolations,
  translateToAutoprotocol,
} from "../domain/autoprotocol/index.js";
import { interpretIntake } from "../domain/interpret/index.js";
import type { CloudLabProvider, Interpretation, LabPlan, PlanProblem } from "../domain/plan.js";
import { assayWarnings, capabilityProblems, estimateCost, findProvider } from "../domain/providers/index.js";
import { SllNotExpressibleError, toSll } from "../domain/sll/index.js";

/** Assay units one protocol may carry (four 384-well plates): bounds the work before generating. */
export const MAX_SAMPLES_PER_PROTOCOL = 1_536;
/** The largest protocol we send or answer with, as JSON. */
export const MAX_PROTOCOL_BYTES = 2 * 1024 * 1024;

export interface Translation {
  providerId: string;
  protocolFormat: "autoprotocol" | "sll";
  protocol: Record<string, unknown>;
  estimatedCostCents: number;
  turnaroundDays: { min: number; max: number };
  /** Assay-rule warnings, then what the protocol cannot say (manual steps, assumptions). */
  warnings: string[];
  plan: LabPlan;
  interpretation: Interpretation;
}

const fieldErrors = (problems: readonly PlanProblem[], code = "invalid_value"): FieldError[] =>
  problems.map((p) => ({ field: p.field, code, message: p.message }));

export function providerOrNotFound(providerId: string): CloudLabProvider {
  const provider = findProvider(providerId);
  if (!provider) throw new NotFoundError("cloud-lab provider", providerId);
  return provider;
}

/** The plan of an intake for a provider, or a 422 naming every problem. */
export function planFor(
  intake: unknown,
  provider: CloudLabProvider,
): { plan: LabPlan; interpretation: Interpretation } {
  const interpreted = interpretIntake(intake, provider);
  if ("problems" in interpreted)
    throw new ValidationError("the intake cannot be read", fieldErrors(interpreted.problems));
  const problems = capabilityProblems(interpreted.plan, provider);
  if (problems.length > 0)
    throw new ValidationError(
      `${provider.name} cannot run this experiment`,
      fieldErrors(problems, "not_supported"),
    );
  if (interpreted.plan.sample_count > MAX_SAMPLES_PER_PROTOCOL)
    throw new ValidationError("the experiment is too large for one protocol", [
      {
        field: "sample_count",
        code: "exceeds_limit",
        message: `${interpreted.plan.sample_count} assay units exceed the ${MAX_SAMPLES_PER_PROTOCOL} one protocol may carry; split the experiment`,
      },
    ]);
  return interpreted;
}

/**
 * Autoprotocol, on the plan's plate; when it does not fit a 96-well plate and the provider has
 * 384-well plates, on a 384-well plate instead (said in the notes) rather than a refusal.
 */
function autoprotocolFor(plan: LabPlan, provider: CloudLabProvider) {
  try {
    return { ...translateToAutoprotocol(plan), plan };
  } catch (error) {
    if (
      !(error instanceof ProtocolTooLargeError) ||
      plan.plate_format !== "96-well" ||
      !provider.capabilities.plate_formats.includes("384-well")
    )
      throw error;
    const larger = { ...plan, plate_format: "384-well" } as LabPlan;
    const translated = translateToAutoprotocol(larger);
    return {
      document: translated.document,
      notes: ["The layout does not fit a 96-well plate, so it uses a 384-well plate.", ...translated.notes],
      plan: larger,
    };
  }
}

function generate(
  plan: LabPlan,
  provider: CloudLabProvider,
): { protocol: Record<string, unknown>; notes: string[]; plan: LabPlan } {
  if (provider.protocol_format === "autoprotocol") {
    const { document, notes, plan: used } = autoprotocolFor(plan, provider);
    const violations = [...schemaViolations(document), ...checkAutoprotocol(document)];
    if (violations.length > 0)
      throw new Error(
        `the generated Autoprotocol breaks its own checks (${violations
          .slice(0, 3)
          .map((v) => `${v.rule} at ${v.path}`)
          .join("; ")})`,
      );
    return { protocol: document as unknown as Record<string, unknown>, notes, plan: used };
  }
  try {
    const protocol = toSll(plan);
    return { protocol: protocol as unknown as Record<string, unknown>, notes: protocol.notes, plan };
  } catch (error) {
    if (error instanceof SllNotExpressibleError)
      throw new ValidationError("the plan cannot be expressed in SLL", [
        { field: error.field, code: "cannot_be_expressed", message: error.message },
      ]);
    throw error;
  }
}

export function translateIntake(intake: unknown, providerId: string): Translation {
  const provider = providerOrNotFound(providerId);
  const read = planFor(intake, provider);
  const { protocol, notes, plan } = generate(read.plan, provider);
  if (Buffer.byteLength(JSON.stringify(protocol), "utf8") > MAX_PROTOCOL_BYTES)
    throw new ValidationError("the protocol would be too large", [
      {
        field: "sample_count",
        code: "exceeds_limit",
        message: `the protocol would exceed ${MAX_PROTOCOL_BYTES / 1024 / 1024} MiB; split the experiment`,
      },
    ]);
  const estimate = estimateCost(plan, provider);
  return {
    providerId: provider.id,
    protocolFormat: provider.protocol_format,
    protocol,
    estimatedCostCents: Math.round(estimate.estimated_cost_usd * 100),
    turnaroundDays: estimate.estimated_turnaround_days,
    warnings: [...assayWarnings(plan), ...notes],
    plan,
    interpretation: read.interpretation,
  };
}
