// Whether a client's JSON schema (a tool's parameters, a response_format or guided_json schema) is
// one: a grammar built from a schema that is not (`{"type": "foo"}`) holds the answer to nothing
// the client meant, so it is refused with the validator's reason instead.
import { Ajv } from "ajv";

// Only validateSchema is used (nothing compiled or cached), whose errors are read before the next call.
const ajv = new Ajv({ strict: false });

/** Why `schema` is not a valid JSON schema, or undefined when it is. */
export function schemaProblem(schema: object): string | undefined {
  // Checked against the draft the validator knows, whichever the schema names.
  const { $schema: _draft, ...rest } = schema as { $schema?: unknown };
  return ajv.validateSchema(rest) ? undefined : ajv.errorsText(ajv.errors);
}
