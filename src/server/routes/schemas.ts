// JSON schema fragments shared by the text routes (fastify validates bodies with them).
import type { SchemaType } from "../json-schema-to-ts-provider";

// `const`: the fragment keeps its literal type, which the body types are read from.
const nullable = <const Schema extends object>(schema: Schema) => ({ anyOf: [schema, { type: "null" }] }) as const;

export const samplingProperties = {
  model: { type: "string", minLength: 1 },
  max_tokens: nullable({ type: "integer", minimum: 1 }),
  temperature: nullable({ type: "number", minimum: 0, maximum: 2 }),
  top_p: nullable({ type: "number", minimum: 0, maximum: 1 }),
  top_k: nullable({ type: "integer", minimum: -1 }),
  n: nullable({ type: "integer", minimum: 1, maximum: 16 }),
  stream: nullable({ type: "boolean" }),
  stream_options: nullable({
    type: "object",
    properties: { include_usage: { type: "boolean" } },
  }),
  stop: nullable({
    anyOf: [
      { type: "string", minLength: 1 },
      { type: "array", maxItems: 16, items: { type: "string", minLength: 1 } },
    ],
  }),
  presence_penalty: nullable({ type: "number", minimum: -2, maximum: 2 }),
  frequency_penalty: nullable({ type: "number", minimum: -2, maximum: 2 }),
  logit_bias: nullable({
    type: "object",
    propertyNames: { pattern: "^[0-9]+$" },
    additionalProperties: { type: "number", minimum: -100, maximum: 100 },
  }),
  seed: nullable({ type: "integer" }),
  user: nullable({ type: "string" }),
  guided_json: nullable({ anyOf: [{ type: "object" }, { type: "string" }] }),
  response_format: nullable({
    type: "object",
    required: ["type"],
    properties: {
      type: { enum: ["text", "json_object", "json_schema"] },
      json_schema: { type: "object", properties: { schema: { type: "object" } } },
    },
  }),
} as const;

/** The sampling fields every text route accepts. */
export type SamplingBody = SchemaType<{ type: "object"; required: ["model"]; properties: typeof samplingProperties }>;

export const errorResponseSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        message: { type: "string" },
        type: { type: "string" },
        param: { type: ["string", "null"] },
        code: { type: ["string", "null"] },
      },
    },
  },
} as const;
