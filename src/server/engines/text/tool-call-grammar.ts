// One GBNF grammar for a tool call in the model's layout (see CallLayout): the layout's literal
// text around one of the tools' names and arguments that follow that tool's JSON schema. Each
// schema's own grammar (node-llama-cpp's JSON-schema grammar) is embedded with its rules renamed.
import type { CallLayout } from "./tool-call-layout";
import { suffixFor } from "./tool-call-layout";

export interface ToolGrammar {
  name: string;
  /** GBNF of the arguments, as node-llama-cpp writes it for the tool's JSON schema. */
  argumentsGbnf: string;
}

/**
 * The schema as node-llama-cpp's JSON-schema grammar reads it. It knows `oneOf` but not `anyOf`
 * or `allOf` (it would silently write `null` for them): `anyOf` becomes `oneOf` (for generating one
 * value they are the same), and `allOf` is merged into the schema around it (properties and
 * required lists joined, other keywords the later one's).
 */
export function grammarSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(grammarSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const { allOf, ...rest } = schema as { allOf?: unknown };
  const merged = Array.isArray(allOf) ? allOf.reduce<Record<string, unknown>>(mergeSchemas, rest) : rest;
  return Object.fromEntries(Object.entries(merged).map(([key, value]) => [key === "anyOf" ? "oneOf" : key, subschemas(key, value)]));
}

// Only schemas are read as schemas: the keys of these are property (or definition) names, and
// other keywords' values (enum, const, default, required) are data; a property named anyOf stays.
const schemaMaps = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const schemaValues = new Set([
  "anyOf", "oneOf", "items", "prefixItems", "additionalItems", "additionalProperties", "unevaluatedItems", "unevaluatedProperties",
  "contains", "propertyNames", "not", "if", "then", "else",
]);

function subschemas(keyword: string, value: unknown): unknown {
  if (schemaValues.has(keyword)) return grammarSchema(value);
  if (!schemaMaps.has(keyword) || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, grammarSchema(schema)]));
}

function mergeSchemas(into: Record<string, unknown>, next: unknown): Record<string, unknown> {
  if (next === null || typeof next !== "object") return into;
  const part = grammarSchema(next) as Record<string, unknown>;
  const properties = { ...(into.properties as object | undefined), ...(part.properties as object | undefined) };
  const required = [...new Set([...((into.required as string[] | undefined) ?? []), ...((part.required as string[] | undefined) ?? [])])];
  return { ...into, ...part, ...(Object.keys(properties).length > 0 ? { properties } : {}), ...(required.length > 0 ? { required } : {}) };
}

/** A GBNF string literal. */
export function gbnfLiteral(text: string): string {
  const escaped = [...text]
    .map((c) => {
      if (c === "\\" || c === '"') return `\\${c}`;
      if (c === "\n") return "\\n";
      if (c === "\r") return "\\r";
      if (c === "\t") return "\\t";
      const code = c.codePointAt(0)!;
      return code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, "0")}` : c;
    })
    .join("");
  return `"${escaped}"`;
}

// node-llama-cpp's JSON grammars end with newlines so that its chat loop can see the end; a call
// ends with its suffix instead.
const trailingNewlines = / "\\n\\n\\n\\n" \[\\n\]\*$/;

/**
 * The grammar's rules with every rule name prefixed by `scope` (outside string literals and
 * character classes), and the root's trailing newlines taken off.
 */
export function scopeRules(gbnf: string, scope: string): string {
  const lines = gbnf.split("\n").filter((l) => l.trim() !== "");
  const defined = new Set(lines.map((l) => /^([a-zA-Z0-9-]+)\s*::=/.exec(l)?.[1]).filter((n): n is string => n !== undefined));
  return lines
    .map((line) => {
      let out = "";
      for (let i = 0; i < line.length; ) {
        const c = line[i]!;
        if (c === '"' || c === "[") {
          const close = c === '"' ? '"' : "]";
          let j = i + 1;
          while (j < line.length && line[j] !== close) j += line[j] === "\\" ? 2 : 1;
          out += line.slice(i, j + 1);
          i = j + 1;
        } else if (/[a-zA-Z0-9-]/.test(c)) {
          let j = i;
          while (j < line.length && /[a-zA-Z0-9-]/.test(line[j]!)) j++;
          const word = line.slice(i, j);
          out += defined.has(word) ? `${scope}${word}` : word;
          i = j;
        } else {
          out += c;
          i++;
        }
      }
      return out.startsWith(`${scope}root ::=`) ? out.replace(trailingNewlines, "") : out;
    })
    .join("\n");
}

/** root: one call to any of `tools`, laid out as `layout` says. */
export function toolCallGrammar(layout: CallLayout, tools: readonly ToolGrammar[]): string {
  const calls = tools.map((tool, i) => {
    const scope = `t${i}-`;
    const head = gbnfLiteral(layout.prefix + tool.name + layout.paramsPrefix);
    return { rule: `call${i} ::= ${head} ${scope}root ${gbnfLiteral(suffixFor(layout, tool.name))}`, rules: scopeRules(tool.argumentsGbnf, scope) };
  });
  return [`root ::= ${calls.map((_, i) => `call${i}`).join(" | ")}`, ...calls.flatMap((c) => [c.rule, c.rules])].join("\n");
}
