// Where upstream engines come from: `--upstream NAME=URL[,key-env=VAR][,models=a,b]` flags and the
// `upstreams` list of a `--config` file; both become the same UpstreamSpec, checked the same way.
import { JsonLineError, parseJsonWithLines } from "./json-lines";

export interface UpstreamSpec {
  /** Shown in /v1/models' owned_by, in error messages and the console. */
  name: string;
  /** The engine's OpenAI-style base URL (its /v1). */
  baseUrl: string;
  /** The environment variable holding the engine's API key (the key itself is never in a file or flag). */
  keyEnv?: string;
  /** Only these of the engine's models are served (all of them when absent). */
  models?: string[];
}

/** Per-key limits over any minute; 0 is no limit. */
export interface RateLimit {
  requestsPerMinute: number;
  tokensPerMinute: number;
}

/** What a config file may set. */
export interface FileConfig {
  upstreams: UpstreamSpec[];
  rateLimit?: RateLimit;
  localModels?: boolean;
  /** The database's URL (a file holding it, with its password, is to be kept owner-only). */
  database?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const ENV = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A URL with an empty path means the engine's /v1. Throws a reason (without the line). */
export function upstreamBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`'${text}' is not a URL (expected e.g. http://gpu-1:8000/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`'${text}' must start with http:// or https://`);
  if (url.username || url.password) throw new Error("the URL must not hold credentials: use key-env=VAR");
  if (url.search || url.hash) throw new Error(`'${text}' must not have a query or fragment`);
  const pathName = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${pathName === "" ? "/v1" : pathName}`;
}

function checkName(name: string): string {
  if (!NAME.test(name)) throw new Error(`upstream name '${name}' must be letters, digits, '.', '_' or '-' (up to 64)`);
  return name;
}

function checkEnv(name: string): string {
  if (!ENV.test(name)) throw new Error(`key-env '${name}' is not an environment variable name`);
  return name;
}

/** The Authorization header for an upstream: its key-env variable must be set (a missing key is an error now, not a 401 later). */
export function upstreamAuthorization(spec: UpstreamSpec, env: Record<string, string | undefined>): string | undefined {
  if (spec.keyEnv === undefined) return undefined;
  const key = env[spec.keyEnv];
  if (!key) throw new Error(`upstream ${spec.name}: the environment variable ${spec.keyEnv} (its key-env) is not set`);
  return `Bearer ${key}`;
}

/** `NAME=URL[,key-env=VAR][,models=a,b]`: `models` takes the rest of the list. */
export function parseUpstreamFlag(flag: string): UpstreamSpec {
  const eq = flag.indexOf("=");
  if (eq < 1) throw new Error(`--upstream '${flag}': expected NAME=URL[,key-env=VAR][,models=a,b]`);
  const [url, ...options] = flag.slice(eq + 1).split(",");
  const spec: UpstreamSpec = { name: checkName(flag.slice(0, eq)), baseUrl: upstreamBaseUrl(url ?? "") };
  for (let i = 0; i < options.length; i++) {
    const option = options[i]!;
    if (option.startsWith("key-env=")) spec.keyEnv = checkEnv(option.slice("key-env=".length));
    else if (option.startsWith("models=")) {
      spec.models = [option.slice("models=".length), ...options.slice(i + 1)].filter((m) => m !== "");
      break;
    } else throw new Error(`--upstream ${spec.name}: unknown option '${option}' (known: key-env=VAR, models=a,b)`);
  }
  if (spec.models?.length === 0) throw new Error(`--upstream ${spec.name}: models= lists no model`);
  return spec;
}

/** `requests=N,tokens=N` (per minute, per API key). */
export function parseRateLimit(flag: string): RateLimit {
  const limit: RateLimit = { requestsPerMinute: 0, tokensPerMinute: 0 };
  for (const part of flag.split(",")) {
    const [name, value] = part.split("=");
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--rate-limit '${flag}': ${name ?? part} needs a positive integer`);
    if (name === "requests") limit.requestsPerMinute = n;
    else if (name === "tokens") limit.tokensPerMinute = n;
    else throw new Error(`--rate-limit '${flag}': expected requests=N,tokens=N (per minute)`);
  }
  return limit;
}

/** No two upstreams share a name. */
export function checkUniqueNames(specs: readonly UpstreamSpec[]): void {
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s.name)) throw new Error(`upstream '${s.name}' is configured twice`);
    seen.add(s.name);
  }
}

type Path = (string | number)[];

/** Reads a config file's text; errors say the line and the reason. */
export function parseConfigFile(text: string): FileConfig {
  const { value, lineOf } = parseJsonWithLines(text);
  const wrong = (path: Path, reason: string): never => {
    const where = path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
    throw new JsonLineError(lineOf(path), where ? `${where} ${reason}` : reason);
  };
  const object = (v: unknown, path: Path, known: string[]): Record<string, unknown> => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return wrong(path, "must be an object");
    for (const key of Object.keys(v)) if (!known.includes(key)) wrong([...path, key], `is not a known setting (known: ${known.join(", ")})`);
    return v as Record<string, unknown>;
  };
  const string = (v: unknown, path: Path): string => (typeof v === "string" ? v : wrong(path, "must be a string"));
  const checked = <T>(path: Path, check: () => T): T => {
    try {
      return check();
    } catch (error) {
      return wrong(path, (error as Error).message);
    }
  };
  const root = object(value, [], ["upstreams", "rate_limit", "local_models", "database"]);
  const list = root.upstreams ?? [];
  if (!Array.isArray(list)) return wrong(["upstreams"], "must be a list");
  const upstreams = list.map((item, i): UpstreamSpec => {
    const at: Path = ["upstreams", i];
    const u = object(item, at, ["name", "url", "key_env", "models"]);
    if (u.name === undefined) wrong(at, "needs a name");
    if (u.url === undefined) wrong(at, "needs a url");
    const spec: UpstreamSpec = {
      name: checked([...at, "name"], () => checkName(string(u.name, [...at, "name"]))),
      baseUrl: checked([...at, "url"], () => upstreamBaseUrl(string(u.url, [...at, "url"]))),
    };
    if (u.key_env !== undefined) spec.keyEnv = checked([...at, "key_env"], () => checkEnv(string(u.key_env, [...at, "key_env"])));
    if (u.models !== undefined) {
      if (!Array.isArray(u.models) || u.models.length === 0) wrong([...at, "models"], "must be a non-empty list of model ids");
      spec.models = (u.models as unknown[]).map((m, j) => string(m, [...at, "models", j]));
    }
    return spec;
  });
  for (let i = 1; i < upstreams.length; i++) checked(["upstreams", i, "name"], () => checkUniqueNames(upstreams.slice(0, i + 1)));
  const config: FileConfig = { upstreams };
  if (root.rate_limit !== undefined) {
    const r = object(root.rate_limit, ["rate_limit"], ["requests_per_minute", "tokens_per_minute"]);
    const count = (key: string) => {
      const v = r[key] ?? 0;
      return Number.isInteger(v) && (v as number) >= 0 ? (v as number) : wrong(["rate_limit", key], "must be a whole number (0: no limit)");
    };
    config.rateLimit = { requestsPerMinute: count("requests_per_minute"), tokensPerMinute: count("tokens_per_minute") };
  }
  if (root.database !== undefined) config.database = string(root.database, ["database"]);
  if (root.local_models !== undefined) {
    if (typeof root.local_models !== "boolean") wrong(["local_models"], "must be true or false");
    config.localModels = root.local_models as boolean;
  }
  return config;
}
