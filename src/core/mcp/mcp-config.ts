/**
 * MCP server configuration in VS Code's own format (`.vscode/mcp.json`, and the same shape in the
 * `wisp.mcp.servers` setting): `{"servers": {NAME: stdio | http}, "inputs": [...]}`. Parsed into
 * typed entries, with one readable problem per entry that cannot be used.
 */
import { folderBasename } from "../context/workspace-paths";
import { maskSecrets } from "../terminal/mask-secrets";

export interface StdioServerConfig {
  readonly type: "stdio";
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface HttpServerConfig {
  /** Streamable HTTP, falling back to SSE for older servers ("sse" goes to SSE at once). */
  readonly type: "http" | "sse";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

/** Where a server is defined: the workspace's file asks before its first start; the user's setting does not. */
export type ConfigSource = "workspace" | "user";

export interface McpServerEntry {
  readonly name: string;
  readonly source: ConfigSource;
  readonly config: McpServerConfig;
  /** The folder whose `.vscode/mcp.json` defines it (its `${workspaceFolder}`); undefined: the user's setting. */
  readonly workspaceFolder?: string;
}

/** A `${input:ID}` the user is asked for once. */
export interface McpInput {
  readonly id: string;
  readonly description: string;
  readonly password: boolean;
  /** The folder whose `.vscode/mcp.json` defines it; undefined: the user's setting. */
  readonly workspaceFolder?: string;
}

export interface ParsedConfig {
  readonly servers: readonly McpServerEntry[];
  readonly inputs: readonly McpInput[];
  readonly problems: readonly string[];
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function parseMcpConfig(value: unknown, source: ConfigSource, where: string): ParsedConfig {
  const problems: string[] = [];
  if (value === undefined || value === null) return { servers: [], inputs: [], problems };
  if (!isRecord(value)) return { servers: [], inputs: [], problems: [`${where}: expected an object with "servers".`] };
  const servers: McpServerEntry[] = [];
  const entries = value.servers === undefined ? {} : value.servers;
  if (!isRecord(entries)) problems.push(`${where}: "servers" must be an object of named servers.`);
  else {
    for (const [name, raw] of Object.entries(entries)) {
      const parsed = parseServer(raw);
      if (typeof parsed === "string") problems.push(`${where}: server "${name}": ${parsed}`);
      else servers.push({ name, source, config: parsed });
    }
  }
  const inputs = Array.isArray(value.inputs)
    ? value.inputs.filter(isRecord).flatMap((i) => (typeof i.id === "string" ? [{ id: i.id, description: typeof i.description === "string" ? i.description : i.id, password: i.password === true }] : []))
    : [];
  return { servers, inputs, problems };
}

function parseServer(raw: unknown): McpServerConfig | string {
  if (!isRecord(raw)) return "expected an object";
  const type = raw.type ?? (typeof raw.command === "string" ? "stdio" : typeof raw.url === "string" ? "http" : undefined);
  if (type === "stdio") {
    if (typeof raw.command !== "string" || raw.command.trim() === "") return 'a stdio server needs a "command"';
    if (raw.args !== undefined && !(Array.isArray(raw.args) && raw.args.every((a) => typeof a === "string"))) return '"args" must be a list of strings';
    const env = stringMap(raw.env);
    if (env === undefined) return '"env" must be an object of strings';
    if (raw.cwd !== undefined && typeof raw.cwd !== "string") return '"cwd" must be a string';
    return { type: "stdio", command: raw.command, args: (raw.args as string[] | undefined) ?? [], env, ...(typeof raw.cwd === "string" ? { cwd: raw.cwd } : {}) };
  }
  if (type === "http" || type === "sse") {
    if (typeof raw.url !== "string" || raw.url.trim() === "") return `an ${type} server needs a "url"`;
    const headers = stringMap(raw.headers);
    if (headers === undefined) return '"headers" must be an object of strings';
    return { type, url: raw.url, headers };
  }
  return `unknown "type" ${JSON.stringify(type)}: use "stdio" or "http"`;
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === "string")) return undefined;
  return value as Record<string, string>;
}

export interface Expansion {
  readonly workspaceFolder: string | undefined;
  /** Each open folder's path by its name, for `${workspaceFolder:NAME}`. */
  readonly folders?: ReadonlyMap<string, string>;
  readonly userHome?: string;
  /** `/` or `\\`, for `${pathSeparator}` and `${/}` (default `/`). */
  readonly pathSeparator?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The value of each `${input:ID}` (asked for before expanding). */
  readonly inputs: ReadonlyMap<string, string>;
}

/** Any `${…}`: those of VS Code's MCP configuration are filled in; others stay as written, as VS Code leaves them. */
const variable = /\$\{([^}]*)\}/g;

/** The ids of `${input:…}` a server's config uses. */
export function inputIds(config: McpServerConfig): string[] {
  const ids = new Set<string>();
  for (const text of configStrings(config)) for (const m of text.matchAll(variable)) if (m[1]!.startsWith("input:")) ids.add(m[1]!.slice("input:".length));
  return [...ids];
}

/** The config with its variables filled in; one without a value (no folder, an input not given) is an error naming it. */
export function expandConfig(config: McpServerConfig, values: Expansion): McpServerConfig {
  const expand = (text: string) => text.replace(variable, (whole, name: string) => valueOf(whole, name, values));
  const map = (record: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, expand(v)]));
  if (config.type === "stdio") {
    return { ...config, command: expand(config.command), args: config.args.map(expand), env: map(config.env), ...(config.cwd !== undefined ? { cwd: expand(config.cwd) } : {}) };
  }
  return { ...config, url: expand(config.url), headers: map(config.headers) };
}

function valueOf(whole: string, name: string, values: Expansion): string {
  const [kind, arg] = name.includes(":") ? [name.slice(0, name.indexOf(":")), name.slice(name.indexOf(":") + 1)] : [name, undefined];
  const folder = () => {
    if (values.workspaceFolder === undefined) throw new Error(`${whole} is used, but no folder is open`);
    return values.workspaceFolder;
  };
  if (kind === "input" && arg !== undefined) {
    const value = values.inputs.get(arg);
    if (value === undefined) throw new Error(`no value for ${whole}`);
    return value;
  }
  if (kind === "env" && arg !== undefined) return values.env[arg] ?? "";
  if (kind === "workspaceFolder" && arg !== undefined) {
    const path = values.folders?.get(arg);
    if (path === undefined) throw new Error(`${whole} names no open folder (open: ${[...(values.folders?.keys() ?? [])].join(", ") || "none"})`);
    return path;
  }
  switch (name) {
    case "workspaceFolder":
      return folder();
    case "workspaceFolderBasename":
      return folderBasename(folder());
    case "userHome":
      if (values.userHome === undefined) throw new Error(`${whole} is used, but the home folder is not known`);
      return values.userHome;
    case "pathSeparator":
    case "/":
      return values.pathSeparator ?? "/";
    default:
      return whole;
  }
}

function configStrings(config: McpServerConfig): string[] {
  return config.type === "stdio" ? [config.command, ...config.args, ...Object.values(config.env), config.cwd ?? ""] : [config.url, ...Object.values(config.headers)];
}

/** How the user sees what a server runs (before its first start): the command line, or the URL. */
/**
 * What a server runs, as its approval card and log show it: the command line with the environment
 * it sets and its folder (`NODE_OPTIONS=--require x.cjs` runs code as surely as the command does),
 * or the URL with the headers it sends and the variables they take. Values that look like secrets
 * are masked; `${env:…}` and `${input:…}` references are shown as written, never expanded.
 */
export function describeServer(config: McpServerConfig): string {
  if (config.type !== "stdio") {
    const headers = Object.entries(config.headers).map(([name, value]) => {
      const refs = value.match(/\$\{(?:env|input):[^}]*\}/g) ?? [];
      return refs.length > 0 ? `${name} (from ${refs.join(", ")})` : name;
    });
    return headers.length > 0 ? `${config.url}, sending headers ${headers.join(", ")}` : config.url;
  }
  const quote = (part: string) => (/[\s"'$;&|<>()`]/.test(part) || part === "" ? JSON.stringify(part) : part);
  const env = Object.entries(config.env).map(([name, value]) => (value.includes("${") ? `${name}=${quote(value)}` : maskSecrets(`${name}=${quote(value)}`)));
  const line = [...env, ...[config.command, ...config.args].map(quote)].join(" ");
  return config.cwd ? `${line} (in ${config.cwd})` : line;
}

/**
 * A stable key of what a server runs and for which folder, so a changed command line asks again,
 * and so does the same one in another folder's file: its `${workspaceFolder}`, working folder and
 * scripts are that folder's.
 */
export function configKey(entry: Pick<McpServerEntry, "config" | "workspaceFolder">): string {
  return JSON.stringify({ folder: entry.workspaceFolder ?? null, config: entry.config });
}
