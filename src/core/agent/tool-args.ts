/**
 * A tool call's arguments checked against the tool's JSON schema before it runs. Every problem is
 * said so that the model can fix its next call: the unknown tool and the known ones, the JSON
 * error, or which parameter is wrong and what was expected.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { ChatTool } from "../api/chat";

export type ToolArgs = { readonly ok: true; readonly args: Record<string, unknown> } | { readonly ok: false; readonly error: string };

/** Most schema problems named in one answer. */
const maxProblems = 3;

/**
 * Compiled schemas, kept by their text: compiling the agent's eight schemas takes 60-140 ms here,
 * which every task paid (twice) before its first request; the same schema compiles once.
 */
export class ToolSchemaCompiler {
  // No coercion and no removal: the arguments run as the model sent them, or not at all.
  // verbose: errors carry the offending value, so a type error can say what was sent.
  private readonly ajv = new Ajv({ allErrors: true, verbose: true, strict: false, coerceTypes: false, removeAdditional: false });
  private readonly compiled = new Map<string, ValidateFunction | undefined>();

  /** Schemas compiled so far (each distinct one once). */
  get compiles(): number {
    return this.compiled.size;
  }

  /** The schema's check; undefined for a schema that does not compile (a broken third-party tool), which leaves only the object check. */
  check(schema: Record<string, unknown>): ValidateFunction | undefined {
    const key = JSON.stringify(schema);
    if (!this.compiled.has(key)) this.compiled.set(key, compile(this.ajv, schema));
    return this.compiled.get(key);
  }
}

/** Each tool's compiled schema; validates any number of calls. */
export class ToolArgValidator {
  private readonly tools = new Map<string, { readonly tool: ChatTool; readonly check: ValidateFunction | undefined }>();

  /**
   * `gone`: tools offered earlier in the task that are no longer (name -> its MCP server's name):
   * the model that calls one is told its server went away, not that the tool never existed.
   */
  constructor(tools: readonly ChatTool[], compiler = new ToolSchemaCompiler(), private readonly gone: ReadonlyMap<string, string> = new Map()) {
    for (const tool of tools) this.tools.set(tool.function.name, { tool, check: compiler.check(tool.function.parameters) });
  }

  validate(name: string, argumentsJson: string): ToolArgs {
    const known = this.tools.get(name);
    const server = this.gone.get(name);
    if (!known && server !== undefined) {
      return { ok: false, error: `The tool "${name}" is no longer available: its MCP server "${server}" stopped or no longer offers it. Go on without it, or tell the user. The tools are: ${[...this.tools.keys()].join(", ")}.` };
    }
    if (!known) return { ok: false, error: `There is no tool named "${name}". The tools are: ${[...this.tools.keys()].join(", ")}.` };
    let args: unknown;
    try {
      args = argumentsJson.trim() === "" ? {} : JSON.parse(argumentsJson);
    } catch (error) {
      return { ok: false, error: `The arguments of ${name} are not valid JSON (${(error as Error).message}): send one JSON object with the parameters.` };
    }
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      return { ok: false, error: `The arguments of ${name} must be a JSON object with the parameters, not ${describeValue(args)}.` };
    }
    if (known.check && !known.check(args)) return { ok: false, error: `Invalid arguments for ${name}: ${problems(known.check.errors ?? [], known.tool).join("; ")}.` };
    return { ok: true, args: args as Record<string, unknown> };
  }
}

export function validateToolArgs(name: string, argumentsJson: string, tools: readonly ChatTool[]): ToolArgs {
  return new ToolArgValidator(tools).validate(name, argumentsJson);
}

function compile(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction | undefined {
  try {
    return ajv.compile(schema);
  } catch {
    return undefined;
  }
}

function problems(errors: readonly ErrorObject[], tool: ChatTool): string[] {
  const parameters = tool.function.parameters as { properties?: Record<string, { type?: unknown }> };
  const names = Object.keys(parameters.properties ?? {});
  const said = errors.map((error) => problem(error, names, parameters.properties ?? {}));
  const unique = [...new Set(said)];
  return unique.length > maxProblems ? [...unique.slice(0, maxProblems), `and ${unique.length - maxProblems} more`] : unique;
}

function problem(error: ErrorObject, names: readonly string[], properties: Record<string, { type?: unknown }>): string {
  const where = `"${error.instancePath.replace(/^\//, "").replace(/\/(\d+)/g, "[$1]").replace(/\//g, ".") || "arguments"}"`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const missing = String(params.missingProperty);
      const type = properties[missing]?.type;
      return `"${missing}" is required${typeof type === "string" ? ` (${article(type)})` : ""}`;
    }
    case "additionalProperties":
      return `there is no parameter "${String(params.additionalProperty)}" (the parameters are ${names.join(", ")})`;
    case "type":
      return `${where} must be ${article(String(params.type))}, not ${describeValue(error.data)}`;
    case "enum":
      return `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return `${where} ${error.message ?? "is invalid"}`;
  }
}

function article(type: string): string {
  return type
    .split(",")
    .map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`))
    .join(" or ");
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : article(typeof value);
}
