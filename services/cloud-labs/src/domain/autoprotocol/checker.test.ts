import { describe, expect, it } from "vitest";
import { SAMPLE_PLANS } from "../../../test/support/sample-plans.js";
import { CHECKER_RULES, checkAutoprotocol, type CheckerRule } from "./checker.js";
import { toAutoprotocol } from "./to-autoprotocol.js";
import type { AutoprotocolDocument, Instruction } from "./types.js";

/** A small document that uses every op the generator emits, and passes every rule. */
function validDocument(): AutoprotocolDocument {
  return {
    refs: {
      plate: { new: "96-flat", discard: true },
      pcr: { new: "96-pcr", discard: true },
      stock: { id: "petri-binding:stock", discard: true },
      agar: { id: "petri-binding:agar", discard: true },
    },
    instructions: [
      {
        op: "provision",
        resource_id: "petri-resource:medium",
        to: [
          { well: "plate/0", volume: "100:microliter" },
          { well: "pcr/0", volume: "20:microliter" },
        ],
      },
      {
        op: "liquid_handle",
        locations: [
          { location: "stock/0", transports: [{ volume: "-50:microliter" }] },
          {
            location: "plate/1",
            transports: [
              { volume: "50:microliter" },
              { volume: "-20:microliter" },
              { volume: "20:microliter" },
            ],
          },
        ],
      },
      {
        op: "dispense",
        object: "plate",
        reagent_source: "stock/0",
        columns: [{ column: 2, volume: "50:microliter" }],
      },
      {
        op: "absorbance",
        object: "plate",
        wells: ["0", "1", "2"],
        wavelength: "600:nanometer",
        num_flashes: 25,
        dataref: "t0",
      },
      { op: "cover", object: "plate", lid: "standard" },
      {
        op: "incubate",
        object: "plate",
        where: "warm_37",
        duration: "1:hour",
        shaking: false,
        co2_percent: 0,
      },
      { op: "uncover", object: "plate" },
      { op: "luminescence", object: "plate", wells: ["0"], integration_time: "1:second", dataref: "lum" },
      {
        op: "spectrophotometry",
        object: "plate",
        dataref: "kinetic",
        groups: [
          {
            mode: "absorbance",
            mode_params: { wells: ["plate/0", "plate/14"], wavelength: ["600:nanometer"], num_flashes: 25 },
          },
          { mode: "shake", mode_params: {} },
        ],
        interval: "10:minute",
        num_intervals: 7,
        temperature: "37:celsius",
      },
      { op: "spread", from: "stock/0", to: "agar/0", volume: "100:microliter" },
      { op: "image_plate", object: "agar", mode: "top", dataref: "image" },
      { op: "seal", object: "pcr", type: "ultra-clear" },
      { op: "spin", object: "pcr", acceleration: "1000:g", duration: "1:minute" },
      {
        op: "thermocycle",
        object: "pcr",
        volume: "20:microliter",
        lid_temperature: "105:celsius",
        dataref: "qpcr",
        dyes: { SYBR: [0] },
        groups: [{ cycles: 1, steps: [{ temperature: "95:celsius", duration: "1:minute" }] }],
        melting: { start: "65:celsius", end: "95:celsius", increment: "0.5:celsius", rate: "5:second" },
      },
    ],
    outs: { plate: { "0": { name: "medium" } } },
  };
}

const at = (document: AutoprotocolDocument, index: number): Instruction =>
  document.instructions[index] as Instruction;
const opIndex = (document: AutoprotocolDocument, op: Instruction["op"]) =>
  document.instructions.findIndex((instruction) => instruction.op === op);
const insertBefore = (document: AutoprotocolDocument, op: Instruction["op"], instruction: Instruction) =>
  document.instructions.splice(opIndex(document, op), 0, instruction);
const remove = (document: AutoprotocolDocument, op: Instruction["op"]) =>
  document.instructions.splice(opIndex(document, op), 1);

/** Each case breaks one thing in the valid document and names the rule and path that must catch it. */
const BREAKAGES: {
  rule: CheckerRule;
  what: string;
  path: string;
  breakIt: (d: AutoprotocolDocument) => void;
}[] = [
  {
    rule: "unknown_ref",
    what: "a read of an undeclared container",
    path: "/instructions/3/object",
    breakIt: (d) => Object.assign(at(d, 3), { object: "ghost" }),
  },
  {
    rule: "unknown_ref",
    what: "outs naming an undeclared container",
    path: "/outs/ghost",
    breakIt: (d) => (d.outs.ghost = { "0": { name: "?" } }),
  },
  {
    rule: "well_out_of_range",
    what: "well 96 of a 96-well plate",
    path: "/instructions/0/to/0/well",
    breakIt: (d) => Object.assign(at(d, 0), { to: [{ well: "plate/96", volume: "10:microliter" }] }),
  },
  {
    rule: "well_out_of_range",
    what: "dispense into column 12 of a 12-column plate",
    path: "/instructions/2/columns/0/column",
    breakIt: (d) => Object.assign(at(d, 2), { columns: [{ column: 12, volume: "50:microliter" }] }),
  },
  {
    rule: "well_not_in_object",
    what: "a kinetic read listing another plate's well",
    path: "/instructions/8/groups/0/mode_params/wells/1",
    breakIt: (d) => {
      const read = at(d, 8);
      if (read.op === "spectrophotometry" && read.groups[0]?.mode === "absorbance") {
        read.groups[0].mode_params.wells = ["plate/0", "pcr/0"];
      }
    },
  },
  {
    rule: "volume_negative",
    what: "aspirating from an empty well",
    path: "/instructions/1/locations/0/transports/0/volume",
    breakIt: (d) =>
      Object.assign(at(d, 1), {
        locations: [
          { location: "plate/50", transports: [{ volume: "-10:microliter" }] },
          { location: "plate/1", transports: [{ volume: "10:microliter" }] },
        ],
      }),
  },
  {
    rule: "volume_over_capacity",
    what: "400 µL into a 340 µL well",
    path: "/instructions/0/to/0/volume",
    breakIt: (d) => Object.assign(at(d, 0), { to: [{ well: "plate/0", volume: "400:microliter" }] }),
  },
  {
    rule: "volume_over_capacity",
    what: "a thermocycle volume above the PCR well",
    path: "/instructions/13/volume",
    breakIt: (d) => Object.assign(at(d, 13), { volume: "200:microliter" }),
  },
  {
    rule: "tip_overdraw",
    what: "dispensing more than was aspirated",
    path: "/instructions/1/locations/1/transports/0/volume",
    breakIt: (d) => {
      const handle = at(d, 1);
      if (handle.op === "liquid_handle") handle.locations[1]!.transports[0]!.volume = "60:microliter";
    },
  },
  {
    rule: "closure_required",
    what: "incubating without a lid",
    path: "/instructions/4",
    breakIt: (d) => {
      remove(d, "cover");
      remove(d, "uncover");
    },
  },
  {
    rule: "closure_required",
    what: "thermocycling without a seal",
    path: "/instructions/11",
    breakIt: (d) => {
      remove(d, "seal");
      remove(d, "spin");
    },
  },
  {
    rule: "closure_required",
    what: "spinning without a seal",
    path: "/instructions/11",
    breakIt: (d) => {
      const spin = d.instructions.splice(opIndex(d, "spin"), 1)[0] as Instruction;
      insertBefore(d, "seal", spin);
    },
  },
  {
    rule: "closure_blocks_access",
    what: "pipetting into a lidded plate",
    path: "/instructions/5",
    breakIt: (d) =>
      insertBefore(d, "incubate", {
        op: "provision",
        resource_id: "petri-resource:medium",
        to: [{ well: "plate/3", volume: "10:microliter" }],
      }),
  },
  {
    rule: "closure_state",
    what: "a second lid",
    path: "/instructions/5",
    breakIt: (d) => insertBefore(d, "incubate", { op: "cover", object: "plate", lid: "standard" }),
  },
  {
    rule: "closure_state",
    what: "uncovering a plate without a lid",
    path: "/instructions/7",
    breakIt: (d) => insertBefore(d, "luminescence", { op: "uncover", object: "plate" }),
  },
  {
    rule: "read_through_closure",
    what: "reading through a lid",
    path: "/instructions/6",
    breakIt: (d) => remove(d, "uncover"),
  },
  {
    rule: "read_empty_well",
    what: "reading a well nothing was put in",
    path: "/instructions/3/wells/3",
    breakIt: (d) => Object.assign(at(d, 3), { wells: ["0", "1", "2", "7"] }),
  },
  {
    rule: "dye_on_empty_well",
    what: "a dye on an empty PCR well",
    path: "/instructions/13/dyes/SYBR/1",
    breakIt: (d) => Object.assign(at(d, 13), { dyes: { SYBR: [0, 5] } }),
  },
  {
    rule: "optical_seal_required",
    what: "reading dyes through foil",
    path: "/instructions/13",
    breakIt: (d) => Object.assign(at(d, 11), { type: "foil" }),
  },
  {
    rule: "duplicate_dataref",
    what: "two reads into one dataset",
    path: "/instructions/7/dataref",
    breakIt: (d) => Object.assign(at(d, 7), { dataref: "t0" }),
  },
];

describe("checkAutoprotocol", () => {
  it("passes the valid document", () => {
    expect(checkAutoprotocol(validDocument())).toEqual([]);
  });

  it.each(BREAKAGES.map((b) => [b.rule, b.what, b] as const))("%s catches %s", (_, __, breakage) => {
    const document = validDocument();
    breakage.breakIt(document);
    const violations = checkAutoprotocol(document);
    expect(violations.map((v) => v.rule)).toContain(breakage.rule);
    expect(violations.find((v) => v.rule === breakage.rule)?.path).toBe(breakage.path);
    expect(violations.every((v) => v.message.length > 0)).toBe(true);
  });

  it("has a breaking case for every rule", () => {
    expect(new Set(BREAKAGES.map((b) => b.rule))).toEqual(new Set(Object.keys(CHECKER_RULES)));
  });

  it("tracks volumes through a generated protocol: one extra aspiration from a diluted well is caught", () => {
    const document = toAutoprotocol(SAMPLE_PLANS.MIC_MBC_ASSAY);
    expect(checkAutoprotocol(document)).toEqual([]);
    // Well 9 ends the serial dilution at 50 µL and receives 50 µL inoculum: 100 µL is all there is.
    document.instructions.push({
      op: "liquid_handle",
      locations: [{ location: "mic_plate/9", transports: [{ volume: "-101:microliter" }] }],
    });
    const violations = checkAutoprotocol(document);
    expect(violations).toEqual([
      {
        path: `/instructions/${document.instructions.length - 1}/locations/0/transports/0/volume`,
        rule: "volume_negative",
        message: "takes 101 µL from mic_plate/9, which holds 100 µL",
      },
    ]);
  });
});

describe("schema", () => {
  const schemaCases: [string, (d: AutoprotocolDocument) => void, string][] = [
    [
      "an op we do not emit",
      (d) => d.instructions.push({ op: "pipette" } as unknown as Instruction),
      "/instructions/14",
    ],
    ["an unknown field", (d) => Object.assign(at(d, 4), { retrieve_lid: true }), "/instructions/4"],
    [
      "a quantity without a unit",
      (d) => Object.assign(at(d, 3), { wavelength: "600" }),
      "/instructions/3/wavelength",
    ],
    [
      "a zero volume",
      (d) => Object.assign(at(d, 0), { to: [{ well: "plate/0", volume: "0:microliter" }] }),
      "/instructions/0/to/0/volume",
    ],
    [
      "a humanized well",
      (d) => Object.assign(at(d, 0), { to: [{ well: "plate/A1", volume: "1:microliter" }] }),
      "/instructions/0/to/0/well",
    ],
    [
      "a ref both new and existing",
      (d) => (d.refs.plate = { new: "96-flat", id: "x", discard: true } as never),
      "/refs/plate",
    ],
    ["a ref neither stored nor discarded", (d) => (d.refs.plate = { new: "96-flat" }), "/refs/plate"],
    [
      "an unknown container type",
      (d) => (d.refs.plate = { new: "97-flat", discard: true }),
      "/refs/plate/new",
    ],
    [
      "a qPCR dataref without dyes",
      (d) => {
        const cycle = at(d, 13);
        if (cycle.op === "thermocycle") {
          delete cycle.dyes;
          delete cycle.melting;
        }
      },
      "/instructions/13",
    ],
  ];

  it.each(schemaCases)("rejects %s", (_, breakIt, path) => {
    const document = validDocument();
    breakIt(document);
    const violations = checkAutoprotocol(document);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.rule === "schema")).toBe(true);
    expect(violations.map((v) => v.path)).toContain(path);
  });

  it("rejects something that is not a document at all", () => {
    expect(checkAutoprotocol("refs")).toMatchObject([{ path: "/", rule: "schema" }]);
    expect(checkAutoprotocol({ refs: {}, instructions: [] })).not.toEqual([]);
  });
});
