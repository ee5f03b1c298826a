// node-llama-cpp's JSON-schema grammar follows only `$ref`s of the form "#/$defs/NAME" and reads
// any other as "any JSON" (with a console warning): the answer then holds null where the schema
// wants an object. Schemas often point elsewhere: zod-to-json-schema (the openai SDK's
// zodResponseFormat) and pydantic v1 write "#/definitions/NAME", others a path such as
// "#/properties/start". Each local reference is made one into $defs here.

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => value !== null && typeof value === "object" && !Array.isArray(value);

/** The node a local JSON pointer ("#/a/b~1c") names in `root`, or undefined. */
function resolve(root: unknown, pointer: string): unknown {
  const path = decodeURIComponent(pointer.slice(1));
  if (path === "") return root;
  let node: unknown = root;
  for (const segment of path.slice(1).split("/")) {
    const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) return undefined;
    node = (node as Node)[key];
  }
  return node;
}

function collectRefs(node: unknown, refs: Set<string>): void {
  if (Array.isArray(node)) node.forEach((item) => collectRefs(item, refs));
  if (!isNode(node)) return;
  if (typeof node.$ref === "string") refs.add(node.$ref);
  for (const value of Object.values(node)) collectRefs(value, refs);
}

function rewrite(node: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, names));
  if (!isNode(node)) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === "$ref" && typeof value === "string" && names.has(value) ? `#/$defs/${names.get(value)}` : rewrite(value, names)]),
  );
}

/**
 * `schema` with every local `$ref` pointing into its `$defs`, each target copied there under a
 * name of its own. Throws for a local reference that names nothing in the schema (else the
 * grammar would take it for any JSON).
 */
export function refsIntoDefs(schema: unknown): unknown {
  if (!isNode(schema)) return schema;
  const refs = new Set<string>();
  collectRefs(schema, refs);
  const defs: Node = isNode(schema.$defs) ? { ...schema.$defs } : {};
  const names = new Map<string, string>();
  for (const ref of refs) {
    if (!ref.startsWith("#")) continue;
    const target = resolve(schema, ref);
    if (target === undefined) throw new Error(`$ref '${ref}' points to nothing in the schema`);
    if (/^#\/\$defs\/[A-Za-z0-9_-]+$/.test(ref)) continue;
    const base = `ref${ref.slice(1).replace(/[^A-Za-z0-9]+/g, "_")}`;
    let name = base;
    for (let i = 2; Object.hasOwn(defs, name); i++) name = `${base}_${i}`;
    defs[name] = target;
    names.set(ref, name);
  }
  if (names.size === 0) return schema;
  return rewrite({ ...schema, $defs: defs }, names);
}
