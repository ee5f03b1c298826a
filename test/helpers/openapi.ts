// Validates values against named schemas of OpenAI's OpenAPI description, so that server
// responses are checked against the real contract rather than a hand-written copy. The schemas
// live in the repository (test/fixtures/openapi: the part the tests use, its source and licence).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const openApiSpecPath = path.join(repoRoot, "test/fixtures/openapi/openai-openapi.json");

const SPEC_ID = "openai-openapi";

// ajv-formats ships as CommonJS; under ESM interop the function may sit on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/**
 * OpenAPI 3.0's `nullable: true` is not JSON Schema: rewrite it as "or null". Deprecated fields
 * get the same treatment because OpenAI-compatible servers (vLLM, llama.cpp) send them as null
 * (e.g. `function_call: null`), which clients read as absent.
 */
function allowNulls(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(allowNulls);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = allowNulls(value);
  if (out.nullable === true || (out.deprecated === true && "type" in out)) {
    const { nullable: _n, description, ...rest } = out;
    return { description, anyOf: [rest, { type: "null" }] };
  }
  return out;
}

export interface OpenApiValidator {
  /** Throws an Error listing every violation when `value` does not match `schemaName`. */
  assertValid(schemaName: string, value: unknown): void;
  /** The violations as readable lines; empty when valid. */
  errors(schemaName: string, value: unknown): string[];
}

/**
 * Builds a validator over the spec (OpenAPI 3.1 = JSON Schema 2020-12, hence Ajv2020). The file
 * is read on first use, inside a test: a missing file then fails that test with its path, where a
 * throw while mocha loads the test file would surface as an unrelated module-loader error.
 */
export function createOpenApiValidator(specPath = openApiSpecPath): OpenApiValidator {
  let validatorFor: ((name: string) => ValidateFunction) | undefined;
  const validator = (name: string): ValidateFunction => (validatorFor ??= compile(specPath))(name);

  const errors = (schemaName: string, value: unknown): string[] => {
    const fn = validator(schemaName);
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
  };

  return {
    errors,
    assertValid(schemaName, value) {
      const found = errors(schemaName, value);
      if (found.length > 0) {
        throw new Error(`${schemaName} violations:\n  ${found.join("\n  ")}\nvalue: ${JSON.stringify(value).slice(0, 2000)}`);
      }
    },
  };
}

function compile(specPath: string): (name: string) => ValidateFunction {
  if (!existsSync(specPath)) {
    throw new Error(
      `OpenAI's OpenAPI description is missing: ${specPath}. It is part of the repository; ` +
        "restore it with git, or regenerate it with scripts/openapi/subset-openapi.mjs.",
    );
  }
  const spec = JSON.parse(readFileSync(specPath, "utf8")) as { openapi: string };
  if (!spec.openapi.startsWith("3.1")) {
    throw new Error(`expected an OpenAPI 3.1 spec, got ${spec.openapi}`);
  }
  // strict: false tolerates OpenAPI-only keywords (discriminator, x-oaiMeta, example, deprecated).
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  // OpenAI's own format names; timestamps are integers, nothing more to check.
  ajv.addFormat("unixtime", true);
  ajv.addSchema({ ...(allowNulls(spec) as object), $id: SPEC_ID });
  const cache = new Map<string, ValidateFunction>();

  const validatorFor = (name: string): ValidateFunction => {
    let fn = cache.get(name);
    if (!fn) {
      fn = ajv.getSchema(`${SPEC_ID}#/components/schemas/${name}`);
      if (!fn) throw new Error(`no schema named ${name} in ${specPath}`);
      cache.set(name, fn);
    }
    return fn;
  };

  return validatorFor;
}
