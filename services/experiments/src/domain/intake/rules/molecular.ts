/**
 * qPCR (MIQE 2009 and its 2025 revision) and Sanger verification, as summarised in
 * docs/assay-notes.md §7.3-7.4. Thresholds used, and only these: >= 2 validated
 * reference genes; efficiency 90-110% from a >= 5-point standard curve; no-template control per
 * primer pair, no-RT control for RT-qPCR, melt curve for intercalating dyes; biological
 * replicates >= 3; RNA integrity (RIN >= 7) and purity recorded; primer sequences reported.
 * Sanger: flanking plus internal primers for inserts over about 800 bp, both strands, QV >= 20,
 * comparison against a reference map.
 */
import type { RequestWarning } from "../../contracts.js";
import { warning, type Rule, type RuleContext } from "./context.js";

type QpcrSection = NonNullable<RuleContext["draft"]["qpcr"]>;

export const qpcrRules: Rule = (ctx) => {
  const qpcr = ctx.draft.qpcr;
  if (!qpcr) return [];
  return [...qpcrControlWarnings(ctx, qpcr), ...qpcrReportingWarnings(ctx, qpcr)];
};

const isReverseTranscribed = (qpcr: QpcrSection): boolean =>
  qpcr.sample_type === "RNA" || qpcr.sample_type === "cells";

/** Reference genes, no-template and no-RT controls, amplification efficiency. */
function qpcrControlWarnings(ctx: RuleContext, qpcr: QpcrSection): RequestWarning[] {
  const out: RequestWarning[] = [];
  const references = (qpcr.housekeeping_genes ?? []).filter(Boolean);
  if (references.length > 0 && references.length < 2) {
    out.push(
      warning(
        "qpcr.housekeeping_genes",
        "qpcr.reference_genes",
        "A single reference gene: normalisation to one unvalidated gene is unreliable.",
        "Use at least 2 reference genes validated for stability in these samples (e.g. with geNorm or NormFinder) (MIQE).",
      ),
    );
  }
  if (!ctx.mentions(/\bntcs?\b|no[- ]template/i)) {
    out.push(
      warning(
        "qpcr",
        "qpcr.no_template_control",
        "No no-template control (NTC) is mentioned.",
        "Run an NTC for every primer pair; it should show no amplification (or Cq >= 35, far later than the samples) (MIQE).",
      ),
    );
  }
  const reverseTranscribed = isReverseTranscribed(qpcr);
  if (
    reverseTranscribed &&
    !ctx.mentions(
      /no[- ]?rt\b|\bnrt\b|minus[- ]rt\b|-rt control|no reverse transcriptase|reverse transcriptase[- ](negative|minus)/i,
    )
  ) {
    out.push(
      warning(
        "qpcr.sample_type",
        "qpcr.no_rt_control",
        "The samples are reverse-transcribed but no no-RT control is mentioned.",
        "Include a no-RT control for each sample to detect genomic DNA (MIQE).",
      ),
    );
  }
  if (!ctx.mentions(/efficienc|standard curve/i)) {
    out.push(
      warning(
        "qpcr",
        "qpcr.efficiency",
        "Amplification efficiency is not mentioned.",
        "Ask for efficiencies from a >= 5-point dilution standard curve (90-110%, R^2 >= 0.98); use ddCq only when target and reference efficiencies are similar, otherwise an efficiency-corrected model (Pfaffl).",
      ),
    );
  }
  return out;
}

/** Melt curves, biological replicates, primer sequences and RNA quality. */
function qpcrReportingWarnings(ctx: RuleContext, qpcr: QpcrSection): RequestWarning[] {
  const out: RequestWarning[] = [];
  const reverseTranscribed = isReverseTranscribed(qpcr);
  const outputs = ctx.draft.deliverables.required_processed_outputs;
  if (qpcr.chemistry === "SYBR_GREEN" && !outputs.includes("MELT_CURVES")) {
    out.push(
      warning(
        "deliverables.required_processed_outputs",
        "qpcr.melt_curve",
        "SYBR Green chemistry without melt curves in the deliverables.",
        "Request MELT_CURVES: a single melt peak shows one specific product with an intercalating dye (MIQE).",
      ),
    );
  }
  if (ctx.draft.replicates.biological < 3) {
    out.push(
      warning(
        ctx.paths.biological ?? "replicates.biological",
        "qpcr.biological_replicates",
        `${ctx.draft.replicates.biological} biological replicate${ctx.draft.replicates.biological === 1 ? "" : "s"}: 3 or more are recommended for expression changes.`,
        "Use at least 3 biological replicates per condition.",
      ),
    );
  }
  (qpcr.targets ?? []).forEach((target, index) => {
    const primers = target?.primer_sequences;
    if (!target?.assay_id && !(primers?.forward && primers?.reverse)) {
      out.push(
        warning(
          `qpcr.targets[${index}]`,
          "qpcr.primer_sequences",
          `Target ${target?.gene_symbol ?? index + 1} has neither an assay_id nor forward and reverse primer sequences.`,
          "Give the primer sequences (or a commercial assay id) so the assay can be reported and reproduced (MIQE).",
        ),
      );
    }
  });
  if (reverseTranscribed && !ctx.mentions(/\brin\b|rna integrity|integrity number|a260\/280|260\/280/i)) {
    out.push(
      warning(
        "qpcr.sample_type",
        "qpcr.rna_quality",
        "RNA quality checks are not mentioned.",
        "Ask the lab to record RNA integrity (RIN >= 7) and purity (A260/280 about 2.0) before reverse transcription (MIQE).",
      ),
    );
  }
  return out;
}

export const sangerRules: Rule = ({ draft }) => {
  const sanger = draft.sanger;
  if (!sanger) return [];
  const out: RequestWarning[] = [];
  const primers = sanger.primers ?? [];
  if (primers.length === 0) {
    out.push(
      warning(
        "sanger.primers",
        "sanger.primers",
        "No primers listed.",
        "List the primers (name, sequence, provided_by), or say which of the lab's standard primers to use.",
      ),
    );
  } else if (primers.length === 1) {
    out.push(
      warning(
        "sanger.primers",
        "sanger.both_strands",
        "One primer reads one strand only.",
        "Sequence both strands across the region of interest (a forward and a reverse primer).",
      ),
    );
  }
  const insert = sanger.expected_insert_size_bp;
  if (insert !== undefined && insert > 800 && primers.length < 3) {
    out.push(
      warning(
        "sanger.expected_insert_size_bp",
        "sanger.insert_coverage",
        `An insert of ${insert} bp is longer than one read covers well (about 800 bp).`,
        "Add internal primers besides the two flanking ones so the whole insert is read on both strands.",
      ),
    );
  }
  if (!sanger.reference_sequence_attached) {
    out.push(
      warning(
        "sanger.reference_sequence_attached",
        "sanger.reference_sequence",
        "No reference sequence attached.",
        "Attach the reference map (GenBank or SnapGene file) so reads are aligned against it.",
      ),
    );
  }
  const quality = (draft.acceptance_criteria.success_conditions ?? []).some((c) =>
    /\bqv\d*\b|quality|phred/i.test(c?.metric ?? ""),
  );
  if (!quality) {
    out.push(
      warning(
        "acceptance_criteria.success_conditions",
        "sanger.quality_threshold",
        "No read-quality criterion in the acceptance criteria.",
        "Add a success condition such as QV >= 20 over the verified span.",
      ),
    );
  }
  return out;
};
