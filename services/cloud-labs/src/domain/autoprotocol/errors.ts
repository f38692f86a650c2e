import { ValidationError, type FieldError } from "@petri/service-kit";

/**
 * A plan that Autoprotocol, as we emit it, cannot carry. Both kinds are validation errors
 * (422 validation_failed): the request is fine as an experiment, but not as a protocol for this
 * provider. details.errors lists the plan fields at fault, each with its own code.
 */
export abstract class AutoprotocolTranslationError extends ValidationError {}

/** Steps or settings with no Autoprotocol op behind them ("cannot be expressed"). */
export class ProtocolNotExpressibleError extends AutoprotocolTranslationError {
  constructor(problems: { field: string; message: string }[]) {
    super(
      `The plan cannot be expressed in Autoprotocol: ${problems.map((p) => p.message).join("; ")}`,
      problems.map((p): FieldError => ({ field: p.field, code: "cannot_be_expressed", message: p.message })),
    );
  }
}

/**
 * The layout needs more room than one plate (or one agar lawn) has. One assay plate per
 * protocol, because Autoprotocol runs its instructions in order and `incubate` takes one object:
 * a second plate would be incubated after the first, silently changing the experiment.
 */
export class ProtocolTooLargeError extends AutoprotocolTranslationError {
  constructor(
    field: string,
    readonly needed: number,
    readonly available: number,
    /** What is counted, e.g. "wells of one 96-flat plate". */
    what: string,
    remedy = "split the experiment into several requests or choose a 384-well plate",
  ) {
    const message = `the layout needs ${needed} ${what} but only ${available} are available; ${remedy}`;
    super(`The plan does not fit one protocol: ${message}`, [
      { field, code: "exceeds_plate_capacity", message },
    ]);
  }
}
