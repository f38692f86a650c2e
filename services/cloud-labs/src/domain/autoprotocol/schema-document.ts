import { CONTAINER_TYPES } from "./containers.js";
import { MAX_AUTOPROTOCOL_INSTRUCTIONS } from "./to-autoprotocol.js";

/** A number that is not zero, then the unit (zero volumes and durations mean nothing to a lab). */
const positive = (units: string) => `^(?!0+(?:\\.0+)?:)\\d+(?:\\.\\d+)?:(?:${units})$`;

const string = (pattern: string) => ({ type: "string", pattern }) as const;
const MAX_WELLS = 384;

/** One op: the listed properties only; those not in `required` are optional. */
const op = (name: string, properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties: { op: { const: name }, ...properties },
  required: ["op", ...required],
  additionalProperties: false,
});

/**
 * JSON Schema (draft 2020-12) for exactly the Autoprotocol subset in types.ts: every op and
 * field the generator emits and nothing else (additionalProperties false throughout), so an op
 * or field we do not emit is a schema violation rather than something the checker ignores.
 */
export const AUTOPROTOCOL_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://petri.dev/schemas/autoprotocol-subset.json",
  title: "Autoprotocol subset emitted by Petri",
  type: "object",
  required: ["refs", "instructions", "outs"],
  additionalProperties: false,
  properties: {
    refs: {
      type: "object",
      propertyNames: { $ref: "#/$defs/refName" },
      minProperties: 1,
      maxProperties: 500,
      additionalProperties: { $ref: "#/$defs/ref" },
    },
    instructions: {
      type: "array",
      minItems: 1,
      maxItems: MAX_AUTOPROTOCOL_INSTRUCTIONS,
      items: { $ref: "#/$defs/instruction" },
    },
    outs: {
      type: "object",
      propertyNames: { $ref: "#/$defs/refName" },
      additionalProperties: {
        type: "object",
        propertyNames: { $ref: "#/$defs/wellIndex" },
        additionalProperties: {
          type: "object",
          required: ["name"],
          additionalProperties: false,
          properties: { name: { type: "string", minLength: 1, maxLength: 4000 } },
        },
      },
    },
  },
  $defs: {
    refName: string("^[a-z][a-z0-9_]{0,63}$"),
    wellIndex: string("^(?:0|[1-9]\\d{0,3})$"),
    aliquot: string("^[a-z][a-z0-9_]{0,63}/(?:0|[1-9]\\d{0,3})$"),
    dataref: string("^[a-z0-9_]{1,64}$"),
    volume: string(positive("microliter")),
    signedVolume: string(`^-?${positive("microliter").slice(1)}`),
    duration: string(positive("hour|minute|second")),
    temperature: string("^-?\\d+(?:\\.\\d+)?:celsius$"),
    wavelength: string(positive("nanometer")),
    acceleration: string(positive("g")),
    ref: {
      type: "object",
      additionalProperties: false,
      properties: {
        id: { type: "string", minLength: 1, maxLength: 200 },
        new: { enum: Object.keys(CONTAINER_TYPES) },
        store: {
          type: "object",
          required: ["where"],
          additionalProperties: false,
          properties: { where: { enum: ["cold_80", "cold_20", "cold_4", "ambient"] } },
        },
        discard: { const: true },
      },
      allOf: [
        { oneOf: [{ required: ["id"] }, { required: ["new"] }] },
        { oneOf: [{ required: ["store"] }, { required: ["discard"] }] },
      ],
    },
    object: { $ref: "#/$defs/refName" },
    readWells: {
      type: "array",
      minItems: 1,
      maxItems: MAX_WELLS,
      uniqueItems: true,
      items: { $ref: "#/$defs/wellIndex" },
    },
    instruction: {
      type: "object",
      required: ["op"],
      discriminator: { propertyName: "op" },
      oneOf: [
        op(
          "provision",
          {
            resource_id: { type: "string", minLength: 1, maxLength: 200 },
            to: {
              type: "array",
              minItems: 1,
              maxItems: MAX_WELLS,
              items: {
                type: "object",
                required: ["well", "volume"],
                additionalProperties: false,
                properties: { well: { $ref: "#/$defs/aliquot" }, volume: { $ref: "#/$defs/volume" } },
              },
            },
          },
          ["resource_id", "to"],
        ),
        op(
          "liquid_handle",
          {
            locations: {
              type: "array",
              minItems: 1,
              maxItems: 8,
              items: {
                type: "object",
                required: ["location", "transports"],
                additionalProperties: false,
                properties: {
                  location: { $ref: "#/$defs/aliquot" },
                  transports: {
                    type: "array",
                    minItems: 1,
                    maxItems: 16,
                    items: {
                      type: "object",
                      required: ["volume"],
                      additionalProperties: false,
                      properties: { volume: { $ref: "#/$defs/signedVolume" } },
                    },
                  },
                },
              },
            },
          },
          ["locations"],
        ),
        op(
          "dispense",
          {
            object: { $ref: "#/$defs/object" },
            reagent_source: { $ref: "#/$defs/aliquot" },
            columns: {
              type: "array",
              minItems: 1,
              maxItems: 24,
              items: {
                type: "object",
                required: ["column", "volume"],
                additionalProperties: false,
                properties: {
                  column: { type: "integer", minimum: 0, maximum: 23 },
                  volume: { $ref: "#/$defs/volume" },
                },
              },
            },
          },
          ["object", "reagent_source", "columns"],
        ),
        op(
          "spread",
          {
            from: { $ref: "#/$defs/aliquot" },
            to: { $ref: "#/$defs/aliquot" },
            volume: { $ref: "#/$defs/volume" },
          },
          ["from", "to", "volume"],
        ),
        op(
          "cover",
          { object: { $ref: "#/$defs/object" }, lid: { enum: ["standard", "universal", "low_evaporation"] } },
          ["object", "lid"],
        ),
        op("uncover", { object: { $ref: "#/$defs/object" } }, ["object"]),
        op(
          "seal",
          { object: { $ref: "#/$defs/object" }, type: { enum: ["ultra-clear", "foil", "breathable"] } },
          ["object", "type"],
        ),
        op(
          "incubate",
          {
            object: { $ref: "#/$defs/object" },
            where: { enum: ["ambient", "warm_30", "warm_35", "warm_37"] },
            duration: { $ref: "#/$defs/duration" },
            shaking: { type: "boolean" },
            co2_percent: { type: "number", minimum: 0, maximum: 20 },
          },
          ["object", "where", "duration", "shaking", "co2_percent"],
        ),
        op(
          "spin",
          {
            object: { $ref: "#/$defs/object" },
            acceleration: { $ref: "#/$defs/acceleration" },
            duration: { $ref: "#/$defs/duration" },
          },
          ["object", "acceleration", "duration"],
        ),
        op(
          "absorbance",
          {
            object: { $ref: "#/$defs/object" },
            wells: { $ref: "#/$defs/readWells" },
            wavelength: { $ref: "#/$defs/wavelength" },
            num_flashes: { type: "integer", minimum: 1, maximum: 100 },
            dataref: { $ref: "#/$defs/dataref" },
          },
          ["object", "wells", "wavelength", "num_flashes", "dataref"],
        ),
        op(
          "luminescence",
          {
            object: { $ref: "#/$defs/object" },
            wells: { $ref: "#/$defs/readWells" },
            integration_time: { $ref: "#/$defs/duration" },
            dataref: { $ref: "#/$defs/dataref" },
          },
          ["object", "wells", "integration_time", "dataref"],
        ),
        op(
          "spectrophotometry",
          {
            object: { $ref: "#/$defs/object" },
            dataref: { $ref: "#/$defs/dataref" },
            groups: {
              type: "array",
              minItems: 1,
              maxItems: 4,
              items: {
                oneOf: [
                  {
                    type: "object",
                    required: ["mode", "mode_params"],
                    additionalProperties: false,
                    properties: {
                      mode: { const: "absorbance" },
                      mode_params: {
                        type: "object",
                        required: ["wells", "wavelength", "num_flashes"],
                        additionalProperties: false,
                        properties: {
                          wells: {
                            type: "array",
                            minItems: 1,
                            maxItems: MAX_WELLS,
                            uniqueItems: true,
                            items: { $ref: "#/$defs/aliquot" },
                          },
                          wavelength: {
                            type: "array",
                            minItems: 1,
                            maxItems: 8,
                            items: { $ref: "#/$defs/wavelength" },
                          },
                          num_flashes: { type: "integer", minimum: 1, maximum: 100 },
                        },
                      },
                    },
                  },
                  {
                    type: "object",
                    required: ["mode", "mode_params"],
                    additionalProperties: false,
                    properties: {
                      mode: { const: "shake" },
                      mode_params: { type: "object", additionalProperties: false, properties: {} },
                    },
                  },
                ],
              },
            },
            interval: { $ref: "#/$defs/duration" },
            num_intervals: { type: "integer", minimum: 1, maximum: 100000 },
            temperature: { $ref: "#/$defs/temperature" },
          },
          ["object", "dataref", "groups", "interval", "num_intervals", "temperature"],
        ),
        op(
          "thermocycle",
          {
            object: { $ref: "#/$defs/object" },
            volume: { $ref: "#/$defs/volume" },
            lid_temperature: { $ref: "#/$defs/temperature" },
            dataref: { $ref: "#/$defs/dataref" },
            dyes: {
              type: "object",
              minProperties: 1,
              propertyNames: { enum: ["SYBR", "FAM", "VIC", "HEX", "ROX", "CY5"] },
              additionalProperties: {
                type: "array",
                minItems: 1,
                maxItems: MAX_WELLS,
                uniqueItems: true,
                items: { type: "integer", minimum: 0, maximum: MAX_WELLS - 1 },
              },
            },
            melting: {
              type: "object",
              required: ["start", "end", "increment", "rate"],
              additionalProperties: false,
              properties: {
                start: { $ref: "#/$defs/temperature" },
                end: { $ref: "#/$defs/temperature" },
                increment: { $ref: "#/$defs/temperature" },
                rate: { $ref: "#/$defs/duration" },
              },
            },
            groups: {
              type: "array",
              minItems: 1,
              maxItems: 10,
              items: {
                type: "object",
                required: ["cycles", "steps"],
                additionalProperties: false,
                properties: {
                  cycles: { type: "integer", minimum: 1, maximum: 100 },
                  steps: {
                    type: "array",
                    minItems: 1,
                    maxItems: 10,
                    items: {
                      type: "object",
                      required: ["temperature", "duration"],
                      additionalProperties: false,
                      properties: {
                        temperature: { $ref: "#/$defs/temperature" },
                        duration: { $ref: "#/$defs/duration" },
                        read: { type: "boolean" },
                      },
                    },
                  },
                },
              },
            },
          },
          ["object", "volume", "lid_temperature", "groups"],
        ),
        op(
          "image_plate",
          {
            object: { $ref: "#/$defs/object" },
            mode: { const: "top" },
            dataref: { $ref: "#/$defs/dataref" },
          },
          ["object", "mode", "dataref"],
        ),
      ],
      // A qPCR read: dataref and dyes together; melting only with dyes.
      if: { properties: { op: { const: "thermocycle" } } },
      then: {
        dependentRequired: { dataref: ["dyes"], dyes: ["dataref"], melting: ["dyes"] },
      },
    },
  },
} as const;
