/**
 * Dose-response IC50 design for cells and enzymes (docs/assay-notes.md §7.2).
 * Thresholds used, and only these: >= 8 concentrations (fewer than 5 cannot define an IC50),
 * spanning >= 3 log units, half-log or 2-3-fold spacing; technical triplicates and >= 2-3
 * independent runs; vehicle (0%) and positive (100%) controls; DMSO <= 0.5% (above 1% is
 * worse); Z' >= 0.5; an IC50 outside the tested range is an extrapolation. Enzymes: substrate
 * near Km, stated pre-incubation, enzyme concentration well below the IC50 (tight binding).
 */
import type { RequestWarning } from "../../contracts.js";
import { ratio, toBase } from "../units.js";
import { expectedThresholds, num, warning, type Rule, type RuleContext } from "./context.js";

const VEHICLE_MENTIONED =
  /\bvehicle\b|solvent[- ]only|solvent control|untreated|no[- ]drug|dmso[- ]only|dmso control/i;
const HALF_LOG = Math.sqrt(10);
const SERIES_FACTOR: Record<string, number> = { "2-fold": 2, "3-fold": 3, "half-log": HALF_LOG };

function pointsWarning(path: string, count: number): RequestWarning[] {
  if (count >= 8) return [];
  return [
    warning(
      path,
      "ic50.dose_points",
      count < 5
        ? `${count} concentrations cannot define an IC50: both plateaus and the slope need more points.`
        : `${count} concentrations: at least 8 are recommended, with 2 or more on each plateau.`,
      "Use at least 8 concentrations spanning at least 3 log units, half-log or 2-3-fold apart.",
    ),
  ];
}

function spanWarning(path: string, logUnits: number): RequestWarning[] {
  if (logUnits >= 3 - 1e-9) return [];
  return [
    warning(
      path,
      "ic50.dose_span",
      `The concentrations span ${num(logUnits)} log units; at least 3 are recommended so both plateaus are reached.`,
      "Widen the range (e.g. 1 nM to 10 µM is 4 log units) around the expected IC50.",
    ),
  ];
}

function rangeExcludesExpected(
  ctx: RuleContext,
  path: string,
  min: { value: number; unit: string },
  max: { value: number; unit: string },
) {
  const out: RequestWarning[] = [];
  for (const expected of expectedThresholds(ctx.draft, /\bic\s*-?\s*50\b/i)) {
    const belowMin = ratio(expected, min);
    const aboveMax = ratio(expected, max);
    if (belowMin === null || aboveMax === null) continue;
    if (belowMin < 1 || aboveMax > 1) {
      out.push(
        warning(
          path,
          "ic50.range_excludes_expected",
          `The IC50 threshold in the acceptance criteria (${num(expected.value)} ${expected.unit}) is outside the tested range; an IC50 there would be an extrapolation.`,
          "Choose a range that brackets the expected IC50 with at least 2 points on each plateau.",
        ),
      );
      break;
    }
  }
  return out;
}

function controls(
  ctx: RuleContext,
  section: string,
  positiveField: string,
  positive: string | undefined,
): RequestWarning[] {
  const out: RequestWarning[] = [];
  if (!positive) {
    out.push(
      warning(
        `${section}.${positiveField}`,
        "ic50.positive_control",
        "No positive (100% effect) control stated.",
        "Name a positive control so the top of the curve and the assay window (Z') are defined.",
      ),
    );
  }
  if (!ctx.mentions(VEHICLE_MENTIONED)) {
    out.push(
      warning(
        section,
        "ic50.vehicle_control",
        "No vehicle (0% effect) control is mentioned.",
        "Include vehicle-only wells at the highest solvent concentration used; they define 0% effect.",
      ),
    );
  }
  return out;
}

function independentRuns(ctx: RuleContext): RequestWarning[] {
  if (ctx.draft.replicates.biological >= 2) return [];
  return [
    warning(
      ctx.paths.biological ?? "replicates.biological",
      "ic50.independent_runs",
      `${ctx.draft.replicates.biological} independent run${ctx.draft.replicates.biological === 1 ? "" : "s"}: a reported IC50 needs 2-3.`,
      "Ask for 2-3 independent runs (biological replicates), each in technical triplicate.",
    ),
  ];
}

export const cellViabilityRules: Rule = (ctx) => {
  const cv = ctx.draft.cell_viability;
  if (!cv) return [];
  const out: RequestWarning[] = [];
  const range = cv.dose_range;
  if (!range || range.min === undefined || range.max === undefined || !range.unit) {
    out.push(
      warning(
        "cell_viability.dose_range",
        "ic50.dose_points",
        "No dose range stated.",
        "Give dose_range {min, max, unit, points, dilution_series}: at least 8 concentrations over at least 3 log units.",
      ),
    );
  } else {
    const factor = range.dilution_series ? SERIES_FACTOR[range.dilution_series] : undefined;
    const points =
      range.points ??
      (factor !== undefined && range.min > 0
        ? Math.floor(Math.log(range.max / range.min) / Math.log(factor) + 1e-9) + 1
        : undefined);
    if (points !== undefined) out.push(...pointsWarning("cell_viability.dose_range.points", points));
    if (range.min > 0)
      out.push(...spanWarning("cell_viability.dose_range", Math.log10(range.max / range.min)));
    if (range.dilution_series === "custom") {
      out.push(
        warning(
          "cell_viability.dose_range.dilution_series",
          "ic50.dilution_spacing",
          "A custom dilution series.",
          "Half-log or 2-3-fold spacing is recommended; keep steps no wider than half a log unit.",
        ),
      );
    }
    out.push(
      ...rangeExcludesExpected(
        ctx,
        "cell_viability.dose_range",
        { value: range.min, unit: range.unit },
        { value: range.max, unit: range.unit },
      ),
    );
    const stock = cv.compound_stock_concentration;
    if (/\bdmso\b/i.test(cv.solvent ?? "") && stock?.value && stock.unit) {
      const fraction = ratio(
        { value: range.max, unit: range.unit },
        { value: stock.value, unit: stock.unit },
      );
      if (fraction !== null && fraction * 100 > 0.5) {
        const percent = fraction * 100;
        out.push(
          warning(
            "cell_viability.compound_stock_concentration",
            "ic50.solvent_concentration",
            `Diluting the stock to the top dose gives about ${num(percent)}% DMSO (assuming the stock is in neat DMSO)${
              percent > 1 ? ", above 1%" : ", above 0.5%"
            }.`,
            "Keep DMSO at or below 0.5% in every well: use a more concentrated stock or a lower top dose, and match the vehicle control.",
          ),
        );
      }
    }
  }
  out.push(...controls(ctx, "cell_viability", "positive_control", cv.positive_control));
  if (cv.include_z_factor === false) {
    out.push(
      warning(
        "cell_viability.include_z_factor",
        "ic50.z_factor",
        "The Z' factor will not be reported.",
        "Keep include_z_factor true: Z' >= 0.5 shows the assay window is wide enough to trust the curve.",
      ),
    );
  }
  out.push(...independentRuns(ctx));
  return out;
};

type EnzymeSection = NonNullable<RuleContext["draft"]["enzyme_inhibition"]>;

export const enzymeInhibitionRules: Rule = (ctx) => {
  const enzyme = ctx.draft.enzyme_inhibition;
  if (!enzyme) return [];
  return [
    ...inhibitorSeriesWarnings(ctx, enzyme),
    ...controls(ctx, "enzyme_inhibition", "positive_control_inhibitor", enzyme.positive_control_inhibitor),
    ...independentRuns(ctx),
    ...assayConditionWarnings(ctx, enzyme),
  ];
};

/** The inhibitor series: enough points, spanning enough log units, closely enough spaced. */
function inhibitorSeriesWarnings(ctx: RuleContext, enzyme: EnzymeSection): RequestWarning[] {
  const out: RequestWarning[] = [];
  const concentrations = (enzyme.inhibitor_concentrations ?? []).filter(
    (c): c is { value: number; unit: string } => typeof c?.value === "number" && typeof c.unit === "string",
  );
  const path = "enzyme_inhibition.inhibitor_concentrations";
  if (concentrations.length === 0) {
    out.push(
      warning(
        path,
        "ic50.dose_points",
        "No inhibitor concentrations stated.",
        "List inhibitor_concentrations: at least 8 over at least 3 log units, half-log or 2-3-fold apart.",
      ),
    );
  } else {
    const converted = concentrations.map((c) => toBase(c.value, c.unit));
    const distinctCount = new Set(concentrations.map((c) => `${c.value} ${c.unit}`)).size;
    out.push(...pointsWarning(path, distinctCount));
    const dimension = converted[0]?.dimension;
    const comparable = converted.every((c) => c !== null && c.dimension === dimension);
    const positive = converted
      .filter((c): c is NonNullable<typeof c> => c !== null && c.value > 0)
      .map((c) => c.value);
    if (comparable && positive.length >= 2) {
      const sorted = [...new Set(positive)].sort((a, b) => a - b);
      const low = sorted[0] as number;
      const high = sorted[sorted.length - 1] as number;
      out.push(...spanWarning(path, Math.log10(high / low)));
      const widest = Math.max(...sorted.slice(1).map((v, i) => v / (sorted[i] as number)));
      if (widest > HALF_LOG * 1.01) {
        out.push(
          warning(
            path,
            "ic50.dilution_spacing",
            `Consecutive concentrations are up to ${num(widest)}-fold apart, wider than half a log unit.`,
            "Space concentrations half-log or 2-3-fold apart so the slope is sampled.",
          ),
        );
      }
      const lowest = concentrations[converted.findIndex((c) => c?.value === low)] as {
        value: number;
        unit: string;
      };
      const highest = concentrations[converted.findIndex((c) => c?.value === high)] as {
        value: number;
        unit: string;
      };
      out.push(...rangeExcludesExpected(ctx, path, lowest, highest));
    }
  }
  return out;
}

/** Substrate concentration, pre-incubation and an enzyme concentration below the expected IC50. */
function assayConditionWarnings(ctx: RuleContext, enzyme: EnzymeSection): RequestWarning[] {
  const out: RequestWarning[] = [];
  if (!enzyme.substrate_concentration) {
    out.push(
      warning(
        "enzyme_inhibition.substrate_concentration",
        "enzyme.substrate_concentration",
        "The substrate concentration is not stated; an IC50 depends on it.",
        "Run near the substrate's Km, state [S] (needed to convert IC50 to Ki with Cheng-Prusoff) and keep substrate conversion in the initial-rate regime (<= 10-15%).",
      ),
    );
  }
  if (enzyme.incubation_time_minutes === undefined) {
    out.push(
      warning(
        "enzyme_inhibition.incubation_time_minutes",
        "enzyme.pre_incubation",
        "The incubation (pre-incubation) time is not stated.",
        "State how long enzyme and inhibitor are pre-incubated before the substrate is added.",
      ),
    );
  }
  const enzymeConcentration = enzyme.enzyme_concentration;
  if (enzymeConcentration?.value !== undefined && enzymeConcentration.unit) {
    const tight = expectedThresholds(ctx.draft, /\bic\s*-?\s*50\b/i).some((expected) => {
      const r = ratio(
        { value: enzymeConcentration.value as number, unit: enzymeConcentration.unit as string },
        expected,
      );
      return r !== null && r >= 1;
    });
    if (tight) {
      out.push(
        warning(
          "enzyme_inhibition.enzyme_concentration",
          "enzyme.tight_binding",
          "The enzyme concentration is not below the expected IC50: the measured IC50 would then reflect the enzyme concentration rather than the inhibitor's potency (tight binding).",
          "Lower the enzyme concentration well below the expected IC50, or analyse with a tight-binding model.",
        ),
      );
    }
  }
  return out;
}
