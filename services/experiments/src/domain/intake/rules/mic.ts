/**
 * Broth/agar dilution MIC (CLSI M07) and disk diffusion (CLSI M02), as summarised in
 * docs/assay-notes.md §7.1. Thresholds used, and only these:
 * two-fold series; >= 8 concentrations (fewer than 3 cannot bracket a MIC); final inoculum
 * 5 x 10^5 CFU/mL, accepted about 2-8 x 10^5; 35 +/- 2 °C; 16-20 h for non-fastidious aerobes,
 * some drug/organism pairs 24 h (so warn outside 16-24 h); cation-adjusted Mueller-Hinton broth;
 * growth, sterility and QC-strain controls. Disk diffusion: Mueller-Hinton agar, 35 +/- 2 °C,
 * 16-18 h.
 */
import type { RequestWarning } from "../../contracts.js";
import { num, warning, type Rule, type RuleContext } from "./context.js";

const MUELLER_HINTON = /m(u|ü)eller[\s-]*hinton|\bca-?mhb\b|\bmhb\b|\bmha\b/i;
const CONTROLS_MENTIONED =
  /\bqc strain|\batcc\b|growth control|sterility control|reference (drug|antibiotic)/i;
const QC_STRAINS =
  "E. coli ATCC 25922, S. aureus ATCC 29213, P. aeruginosa ATCC 27853 or E. faecalis ATCC 29212";

function concentrationCount(path: string, count: number): RequestWarning[] {
  if (count >= 8) return [];
  const message =
    count < 3
      ? `Only ${count} concentration${count === 1 ? "" : "s"}: too few to bracket a MIC.`
      : `${count} concentrations: at least 8 are recommended to cover the expected MIC by several doublings and the QC range.`;
  return [
    warning(
      path,
      "mic.concentration_count",
      message,
      "Use a two-fold series of at least 8 concentrations around the expected MIC (CLSI M07).",
    ),
  ];
}

type MicSection = NonNullable<RuleContext["draft"]["mic_mbc"]>;

function micSection(ctx: RuleContext): RequestWarning[] {
  const mic = ctx.draft.mic_mbc;
  if (!mic) return [];
  return [...micSeriesWarnings(mic), ...micInoculumWarnings(mic), ...micConditionWarnings(ctx, mic)];
}

/** A two-fold series with enough concentrations. */
function micSeriesWarnings(mic: MicSection): RequestWarning[] {
  const out: RequestWarning[] = [];
  const range = mic.concentration_range;
  if (!range) {
    out.push(
      warning(
        "mic_mbc.concentration_range",
        "mic.concentration_count",
        "No concentration range stated.",
        "Give concentration_range {min, max, unit, dilution_series: 2-fold} spanning at least 8 two-fold steps (CLSI M07).",
      ),
    );
  } else {
    if (range.dilution_series !== "2-fold") {
      out.push(
        warning(
          "mic_mbc.concentration_range.dilution_series",
          "mic.dilution_series",
          range.dilution_series === "custom"
            ? "A custom dilution series: CLSI M07 dilution MICs use a two-fold series."
            : "The dilution series is not stated: CLSI M07 dilution MICs use a two-fold series.",
          "Set dilution_series to 2-fold so MICs are comparable with breakpoints and QC ranges.",
        ),
      );
    } else if (range.min && range.max && range.max > range.min) {
      const count = Math.floor(Math.log2(range.max / range.min) + 1e-9) + 1;
      out.push(...concentrationCount("mic_mbc.concentration_range", count));
    }
  }
  return out;
}

/** A final inoculum of about 5 x 10^5 CFU/mL. */
function micInoculumWarnings(mic: MicSection): RequestWarning[] {
  const out: RequestWarning[] = [];
  const inoculum = mic.inoculum_cfu_ml;
  if (inoculum === undefined) {
    out.push(
      warning(
        "mic_mbc.inoculum_cfu_ml",
        "mic.inoculum_density",
        "The inoculum density is not stated.",
        "State a final inoculum of 5 x 10^5 CFU/mL, prepared from a 0.5 McFarland suspension and used within about 15-30 min (CLSI M07).",
      ),
    );
  } else if (inoculum < 2e5 || inoculum > 8e5) {
    out.push(
      warning(
        "mic_mbc.inoculum_cfu_ml",
        "mic.inoculum_density",
        `A final inoculum of ${num(inoculum)} CFU/mL is outside the accepted ~2-8 x 10^5 CFU/mL; MICs shift with inoculum.`,
        "Use 5 x 10^5 CFU/mL (CLSI M07).",
      ),
    );
  }
  return out;
}

/** Incubation temperature and time, medium and controls. */
function micConditionWarnings(ctx: RuleContext, mic: MicSection): RequestWarning[] {
  const out: RequestWarning[] = [];
  const temperature = mic.incubation_temperature_c;
  if (temperature !== undefined && (temperature < 33 || temperature > 37)) {
    out.push(
      warning(
        "mic_mbc.incubation_temperature_c",
        "mic.incubation_temperature",
        `${num(temperature)} °C is outside 35 +/- 2 °C.`,
        "Incubate at 35 +/- 2 °C (33-37 °C) (CLSI M07).",
      ),
    );
  }
  const hours = mic.incubation_hours;
  if (hours !== undefined && (hours < 16 || hours > 24)) {
    out.push(
      warning(
        "mic_mbc.incubation_hours",
        "mic.incubation_time",
        `${num(hours)} h is outside 16-24 h.`,
        "Read at 16-20 h for non-fastidious aerobes; 24 h only for the drug/organism pairs that need it (e.g. staphylococci with vancomycin or oxacillin).",
      ),
    );
  }
  if (mic.medium !== undefined && !MUELLER_HINTON.test(mic.medium)) {
    out.push(
      warning(
        "mic_mbc.medium",
        "mic.medium",
        `The medium "${mic.medium}" is not Mueller-Hinton.`,
        "Use cation-adjusted Mueller-Hinton broth for non-fastidious organisms, or explain why another medium is needed.",
      ),
    );
  }
  if (!mic.positive_control_antibiotic && !ctx.mentions(CONTROLS_MENTIONED)) {
    out.push(
      warning(
        "mic_mbc.positive_control_antibiotic",
        "mic.controls",
        "No QC strain or reference antibiotic stated.",
        `Include a growth control (no drug), a sterility control (no inoculum) and a QC strain with a reference drug, e.g. ${QC_STRAINS}.`,
      ),
    );
  }
  return out;
}

function micAssaySection(ctx: RuleContext): RequestWarning[] {
  const assay = ctx.draft.mic_mbc_assay;
  if (!assay) return [];
  const out: RequestWarning[] = [];
  (assay.test_compounds ?? []).forEach((compound, index) => {
    const values = (compound?.concentrations_ug_ml ?? []).filter(
      (v): v is number => typeof v === "number" && v > 0,
    );
    if (values.length === 0) return;
    const path = `mic_mbc_assay.test_compounds[${index}].concentrations_ug_ml`;
    const distinct = [...new Set(values)].sort((a, b) => a - b);
    out.push(...concentrationCount(path, distinct.length));
    const offSeries = distinct.slice(1).some((v, i) => {
      const step = v / (distinct[i] as number);
      return step < 1.9 || step > 2.1;
    });
    if (offSeries) {
      out.push(
        warning(
          path,
          "mic.dilution_series",
          "The concentrations are not a two-fold series.",
          "Use consecutive two-fold steps (e.g. 0.25, 0.5, 1, 2 … µg/mL) as in CLSI M07.",
        ),
      );
    }
  });
  if (!ctx.draft.mic_mbc?.positive_control_antibiotic && !ctx.mentions(CONTROLS_MENTIONED)) {
    out.push(
      warning(
        "mic_mbc_assay",
        "mic.controls",
        "No QC strain or reference antibiotic stated.",
        `Include a growth control (no drug), a sterility control (no inoculum) and a QC strain with a reference drug, e.g. ${QC_STRAINS}.`,
      ),
    );
  }
  return out;
}

export const micRules: Rule = (ctx) => {
  const out = micSection(ctx);
  // The controls rule fires once even when both MIC forms are present.
  const assay = micAssaySection(ctx).filter(
    (w) => !(w.code === "mic.controls" && out.some((o) => o.code === "mic.controls")),
  );
  return [...out, ...assay];
};

export const zoneRules: Rule = ({ draft }) => {
  const zone = draft.zone_of_inhibition;
  if (!zone) return [];
  const out: RequestWarning[] = [];
  if (zone.medium !== undefined && !MUELLER_HINTON.test(zone.medium)) {
    out.push(
      warning(
        "zone_of_inhibition.medium",
        "zone.medium",
        `The medium "${zone.medium}" is not Mueller-Hinton agar.`,
        "Use Mueller-Hinton agar (about 4 mm deep) with a 0.5 McFarland lawn (CLSI M02).",
      ),
    );
  }
  const temperature = zone.incubation_temperature_c;
  if (temperature !== undefined && (temperature < 33 || temperature > 37)) {
    out.push(
      warning(
        "zone_of_inhibition.incubation_temperature_c",
        "zone.incubation_temperature",
        `${num(temperature)} °C is outside 35 +/- 2 °C.`,
        "Incubate at 35 +/- 2 °C (CLSI M02).",
      ),
    );
  }
  const hours = zone.incubation_hours;
  if (hours !== undefined && (hours < 16 || hours > 18)) {
    out.push(
      warning(
        "zone_of_inhibition.incubation_hours",
        "zone.incubation_time",
        `${num(hours)} h is outside 16-18 h.`,
        "Read zones after 16-18 h (CLSI M02).",
      ),
    );
  }
  if ((zone.disk_loading ?? []).length === 0) {
    out.push(
      warning(
        "zone_of_inhibition.disk_loading",
        "zone.disk_loading",
        "No disk loading stated.",
        "Give disk_loading [{amount, unit}] for each disk so zones can be compared between runs.",
      ),
    );
  }
  if (!zone.positive_control) {
    out.push(
      warning(
        "zone_of_inhibition.positive_control",
        "zone.positive_control",
        "No positive control disk stated.",
        "Add a reference antibiotic disk so the lab can show the plate supports a normal zone.",
      ),
    );
  }
  return out;
};
