/** The plan asks for something the SLL generator cannot express (the caller answers 422). */
export class SllNotExpressibleError extends Error {
  override readonly name = "SllNotExpressibleError";
  constructor(
    /** The LabPlan field at fault (e.g. "read_interval_minutes", "compounds[0].concentrations_ug_ml"). */
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** A protocol body that is not renderable (a name outside the allow-list, a non-finite number...). */
export class SllRenderError extends Error {
  override readonly name = "SllRenderError";
}
