import { describe, expect, it } from "vitest";

import { extractEntities, testCompound, type Extraction } from "./extract.js";
import { editDistance, matchVocabulary } from "./match.js";
import { normaliseText } from "./normalise.js";
import { parseNumber, canonicalConcentrationUnit } from "./patterns.js";
import { readMetricThreshold, readZoneThreshold } from "./thresholds.js";
import {
  ANTIMICROBIALS,
  CELL_LINES,
  ENZYMES,
  GENES,
  MEDIA,
  ORGANISMS,
  REFERENCE_COMPOUNDS,
} from "./vocabulary/index.js";

function extract(query: string): Extraction {
  return extractEntities(normaliseText(query));
}

const quantities = (list: { value: number; unit: string }[]) => list.map((q) => `${q.value} ${q.unit}`);

describe("normaliseText", () => {
  it("folds compatibility forms, the micro sign, Greek letters, dashes and whitespace", () => {
    expect(normaliseText("  10\u00a0µg/mL\u2009–\u200b TNF-α  ")).toBe("10 ug/mL - TNF-alpha");
    expect(normaliseText("ΔΔCt and IL-1β")).toBe("deltadeltaCt and IL-1beta");
    expect(normaliseText("“quoted” ‘text’")).toBe("\"quoted\" 'text'");
  });

  it("writes superscripts out before folding, so 10⁵ is not read as 105", () => {
    expect(normaliseText("5 × 10⁵ CFU/mL")).toBe("5 × 10^5 CFU/mL");
    expect(normaliseText("10⁻³ M")).toBe("10^-3 M");
  });

  it("never throws on lone surrogates and control characters", () => {
    expect(() => normaliseText("\ud800abc\u0000\u0007")).not.toThrow();
    expect(normaliseText("a\u0000b")).toBe("ab");
  });
});

describe("concentrations", () => {
  it("reads mass per volume, molar units, words and percentages into canonical units", () => {
    const found = extract(
      "0.5 µg/ml, 2 mg/L, 10 nM, 5 μM, 1 mM, 0.4% (w/v) glucose, 50 micromolar, 10,000 ng/mL, 8 ug ml-1",
    );
    expect(quantities(found.concentrations)).toEqual([
      "0.5 µg/mL",
      "2 mg/L",
      "10 nM",
      "5 µM",
      "1 mM",
      "0.4 %",
      "50 µM",
      "10000 ng/mL",
      "8 µg/mL",
    ]);
  });

  it("reads ranges and lists, sharing the unit written once at the end", () => {
    const found = extract("0.125-64 ug/mL; 1, 2, 4 and 8 uM; from 1 to 100 nM");
    expect(quantities(found.concentrations)).toEqual([
      "0.125 µg/mL",
      "64 µg/mL",
      "1 µM",
      "2 µM",
      "4 µM",
      "8 µM",
      "1 nM",
      "100 nM",
    ]);
    expect(found.concentrations[0]?.group).toBe(found.concentrations[1]?.group);
    expect(found.concentrations[1]?.group).not.toBe(found.concentrations[2]?.group);
  });

  it("does not read numbers inside codes or ids as concentrations", () => {
    expect(quantities(extract("PX-17 10 uM").concentrations)).toEqual(["10 µM"]);
    expect(quantities(extract("E. coli ATCC 25922, 0.0078-4 ug/ml").concentrations)).toEqual([
      "0.0078 µg/mL",
      "4 µg/mL",
    ]);
    expect(extract("HEK293 cells").concentrations).toEqual([]);
  });

  it("does not take an effect size for a concentration", () => {
    expect(extract("reduces biofilm by at least 50%").concentrations).toEqual([]);
    expect(extract("a 30% reduction in growth").concentrations).toEqual([]);
    expect(quantities(extract("in 0.2% glucose").concentrations)).toEqual(["0.2 %"]);
  });

  it("parses scientific notation and thousands separators", () => {
    expect(parseNumber("5 x 10^5")).toBe(500000);
    expect(parseNumber("5e5")).toBe(500000);
    expect(parseNumber("1.5 × 10^-3")).toBe(0.0015);
    expect(parseNumber("10,000")).toBe(10000);
  });
});

describe("durations and temperatures", () => {
  it("reads durations in any common spelling", () => {
    expect(
      quantities(extract("for 24 h, 30 min, 3 days, a 72-h exposure, 24-hour, 2 wks, 90 s, 48hrs").durations),
    ).toEqual(["24 h", "30 min", "3 d", "72 h", "24 h", "2 wk", "90 s", "48 h"]);
  });

  it("does not read a unit inside a word", () => {
    expect(extract("5 hydroxy groups and 3 minimal media").durations).toEqual([]);
  });

  it("reads temperatures with or without the degree sign, keeping the sign of freezer temperatures", () => {
    expect(
      quantities(extract("at 37 °C, 37C, 37 degrees, stored at -80 °C, 98.6 °F, 30ºC").temperatures),
    ).toEqual(["37 °C", "37 °C", "37 °C", "-80 °C", "98.6 °F", "30 °C"]);
  });
});

describe("organisms and strains", () => {
  it("reads abbreviations, run-together spellings and nicknames", () => {
    expect(extract("E.coli, S.aureus and Staph aureus").organisms.map((o) => o.name)).toEqual([
      "Escherichia coli",
      "Staphylococcus aureus",
    ]);
    expect(extract("MIC against MRSA").organisms.map((o) => o.name)).toEqual(["Staphylococcus aureus"]);
  });

  it("matches short abbreviations only in their written case", () => {
    expect(extract("mrsa isolates").organisms).toEqual([]);
  });

  it("ties ATCC ids to their species, even without the species name", () => {
    const found = extract("QC with ATCC 25922 and atcc#27853");
    expect(found.organisms.map((o) => [o.name, o.strain, o.collection])).toEqual([
      ["Escherichia coli", "ATCC 25922", "ATCC"],
      ["Pseudomonas aeruginosa", "ATCC 27853", "ATCC"],
    ]);
    expect(found.organisms[0]?.strainInfo?.clsiQc).toBe(true);
  });

  it("ties an unknown id to the organism named just before it", () => {
    expect(extract("K. pneumoniae ATCC BAA-1705").organisms).toMatchObject([
      { name: "Klebsiella pneumoniae", strain: "ATCC BAA-1705" },
    ]);
  });

  it("reads distinctive strains alone, ambiguous ones only right after their species", () => {
    expect(extract("PAO1 biofilms").organisms).toMatchObject([
      { name: "Pseudomonas aeruginosa", strain: "PAO1" },
    ]);
    expect(extract("B. subtilis 168 in LB").organisms).toMatchObject([
      { name: "Bacillus subtilis", strain: "168" },
    ]);
    expect(extract("grown for 168 h").organisms).toEqual([]);
    expect(extract("Newman projection").organisms).toEqual([]);
  });

  it("reads an unknown species of a known genus, without guessing its biosafety level", () => {
    const found = extract("Bacillus cereus spores");
    expect(found.organisms).toMatchObject([{ name: "Bacillus cereus" }]);
    expect(found.organisms[0]?.entry).toBeUndefined();
  });
});

describe("word boundaries and case", () => {
  it("does not find MIC inside microbial or microscopy", () => {
    const text = normaliseText("microbial growth under the microscope");
    expect(matchVocabulary(text)).toEqual([]);
  });

  it("finds HeLa in any case but not inside a longer word", () => {
    expect(extract("HeLa and hela cells").cellLines.map((c) => c.name)).toEqual(["HeLa"]);
    expect(extract("Michela and Shela").cellLines).toEqual([]);
  });

  it("keeps HEK293 and HEK293T apart and accepts separators", () => {
    expect(extract("HEK293T cells").cellLines.map((c) => c.name)).toEqual(["HEK293T"]);
    expect(extract("HEK-293 and HEK 293 cells").cellLines.map((c) => c.name)).toEqual(["HEK293"]);
    expect(extract("MCF7, MCF-7 and mcf 7").cellLines.map((c) => c.name)).toEqual(["MCF-7"]);
  });

  it("matches three-letter names only in their written case", () => {
    expect(extract("CHO cells").cellLines.map((c) => c.name)).toEqual(["CHO-K1"]);
    expect(extract("cho cells").cellLines).toEqual([]);
  });

  it("accepts a plural s after a name", () => {
    expect(extract("HUVECs under shear").cellLines.map((c) => c.name)).toEqual(["HUVEC"]);
  });

  it("prefers the longest match: RPMI 8226 is a cell line, not the RPMI medium", () => {
    const found = extract("RPMI 8226 cells in RPMI 1640");
    expect(found.cellLines.map((c) => c.name)).toEqual(["RPMI 8226"]);
    expect(found.media.map((m) => m.name)).toEqual(["RPMI 1640"]);
  });
});

describe("genes", () => {
  it("reads symbols, aliases and mouse spellings; symbols are case-significant", () => {
    expect(extract("Il6 and Gapdh, IL-6, p53, TNF-α, β-actin").genes.map((g) => g.name)).toEqual([
      "IL6",
      "GAPDH",
      "TP53",
      "TNF",
      "ACTB",
    ]);
    expect(extract("the myc tag on a cat").genes).toEqual([]);
  });

  it("reads unknown symbols only next to expression words", () => {
    expect(extract("ZNF451 mRNA and expression of FOXM1").genes.map((g) => g.name)).toEqual([
      "ZNF451",
      "FOXM1",
    ]);
    expect(extract("ZNF451 binds DNA").genes).toEqual([]);
    expect(extract("katG and ahpC transcripts").genes.map((g) => g.name)).toEqual(["katG", "ahpC"]);
  });
});

describe("compounds", () => {
  it("picks up code names and introduced names not in the vocabulary", () => {
    const found = extract("compound PX-17, inhibitor XYZ-123, the lead JMC-4 and compound 7b at 10 uM");
    expect(found.compounds.map((c) => [c.name, c.source])).toEqual([
      ["PX-17", "introduced"],
      ["XYZ-123", "introduced"],
      ["JMC-4", "introduced"],
      ["compound 7b", "introduced"],
    ]);
  });

  it("does not take cytokines, cell lines, standards or doses for compounds", () => {
    const found = extract("IL-6 after COVID-19 at BSL-2 in MCF-7 cells with compound 10 uM");
    expect(found.compounds).toEqual([]);
  });

  it("recognises bare codes and extracts", () => {
    expect(extract("test ZT-44 and tea tree oil").compounds.map((c) => c.name)).toEqual([
      "ZT-44",
      "tea tree oil",
    ]);
  });

  it("reads typos of long drug names and reports them", () => {
    const found = extract("ciprofloxacn and doxorubicine, but not protein");
    expect(found.compounds.map((c) => c.name)).toEqual(["ciprofloxacin", "doxorubicin"]);
    expect(found.corrections).toEqual([
      { found: "ciprofloxacn", readAs: "ciprofloxacin" },
      { found: "doxorubicine", readAs: "doxorubicin" },
    ]);
  });

  it("marks controls and stimuli, and chooses the test article", () => {
    const found = extract("PX-17 vs ciprofloxacin (positive control)");
    expect(found.compounds.map((c) => [c.name, c.control])).toEqual([
      ["PX-17", false],
      ["ciprofloxacin", true],
    ]);
    expect(testCompound(extract("LPS-primed THP-1 pretreated with MCC950"))?.name).toBe("MCC950");
    expect(testCompound(extract("meropenem and compound ABX-7"))?.name).toBe("ABX-7");
  });

  it("ignores culture-supplement antibiotics", () => {
    expect(extract("DMEM with 1% pen-strep and penicillin/streptomycin").compounds).toEqual([]);
  });
});

describe("plasmids, ids and enzymes", () => {
  it("reads plasmid names but not pH, pIC50, p53 or phospho-proteins", () => {
    expect(
      extract("pUC19-GFP, pET-28a(+), pcDNA3.1(+), pH 7.4, pIC50 6, p53 and pSTAT3 clone").plasmids.map(
        (p) => p.name,
      ),
    ).toEqual(["pUC19-GFP", "pET-28a(+)", "pcDNA3.1(+)"]);
  });

  it("needs a plasmid word for names outside the usual vector families", () => {
    expect(extract("pZX12 plasmid").plasmids.map((p) => p.name)).toEqual(["pZX12"]);
    expect(extract("pZX12 levels").plasmids).toEqual([]);
  });

  it("prefers the longer enzyme name and falls back to family nouns", () => {
    expect(extract("recombinant EGFR kinase").enzymes.map((e) => e.name)).toEqual(["EGFR kinase"]);
    expect(extract("recombinant EGFR kinase").genes).toEqual([]);
    expect(extract("LRRK2 kinase activity").enzymes.map((e) => e.name)).toEqual(["LRRK2 kinase"]);
  });
});

describe("thresholds", () => {
  it("reads a threshold after its metric, in any phrasing", () => {
    const ic50 = String.raw`(?:IC|EC)\s?-?\s?50s?`;
    expect(
      readMetricThreshold(normaliseText("IC50 < 1 µM"), ic50, "lt", canonicalConcentrationUnit),
    ).toMatchObject({
      comparator: "lt",
      value: 1,
      unit: "µM",
    });
    expect(
      readMetricThreshold("an IC-50 of at most 250 nM", ic50, "lt", canonicalConcentrationUnit),
    ).toMatchObject({
      comparator: "lte",
      value: 250,
      unit: "nM",
    });
    expect(
      readMetricThreshold("MIC of 2 ug/ml or lower", "MICs?", "lte", canonicalConcentrationUnit),
    ).toMatchObject({
      comparator: "lte",
      value: 2,
      unit: "µg/mL",
    });
  });

  it("does not read a ratio such as MBC/MIC <= 4 as a MIC", () => {
    expect(
      readMetricThreshold("MBC/MIC <= 4", "MICs?", "lte", canonicalConcentrationUnit, "µg/mL"),
    ).toBeNull();
  });

  it("reads zone diameters but not the disk size", () => {
    expect(readZoneThreshold("an inhibition zone of at least 15 mm")).toMatchObject({
      comparator: "gte",
      value: 15,
    });
    expect(readZoneThreshold("zones around 6 mm disks")).toBeNull();
  });
});

describe("vocabulary", () => {
  const catalogues = {
    organisms: ORGANISMS,
    antimicrobials: ANTIMICROBIALS,
    cellLines: CELL_LINES,
    genes: GENES,
    enzymes: ENZYMES,
    compounds: REFERENCE_COMPOUNDS,
    media: MEDIA,
  };

  it.each(Object.entries(catalogues))("%s have unique names", (_, entries) => {
    const names = entries.map((e) => e.name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it("has the size the engine notes ask for", () => {
    expect(ANTIMICROBIALS.length).toBeGreaterThanOrEqual(60);
    expect(CELL_LINES.length).toBeGreaterThanOrEqual(60);
  });

  it.each(Object.entries(catalogues))("every %s name is found by the matcher", (_, entries) => {
    for (const entry of entries) {
      const found = matchVocabulary(normaliseText(`with ${entry.name} here`));
      expect(
        found.some((m) => m.entry === entry),
        entry.name,
      ).toBe(true);
    }
  });

  it("computes edit distances with transpositions and an early exit", () => {
    expect(editDistance("ciprofloxacn", "ciprofloxacin", 2)).toBe(1);
    expect(editDistance("teh", "the", 1)).toBe(1);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
  });
});
