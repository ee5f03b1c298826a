// What every route plugin receives: the shared parts of one server instance.
import type { FastifyPluginAsync, FastifyRequest, RawServerDefault } from "fastify";
import type { AllowedHosts } from "../core/net/host-allowed";
import type { KeyRecords } from "./auth/key-records";
import type { ImageEngine } from "./engines/image/image-engine";
import type { TextEngine } from "./engines/text/text-engine";
import type { ModelRegistry } from "./models/registry";
import type { JsonSchemaToTsProvider } from "./json-schema-to-ts-provider";
import type { ServerMetrics } from "./metrics/server-metrics";
import type { Store } from "./store/store";
import type { RateLimit, UpstreamSpec } from "./upstreams/upstream-config";
import type { UpstreamRegistry } from "./upstreams/upstream-registry";
import type { UsageRecorder } from "./usage/usage-recorder";

export interface ServerConfig {
  host: string;
  port: number;
  /**
   * Host names answered besides localhost and IP addresses (see core/net/host-allowed.ts): on a
   * loopback host only these; elsewhere every name while none is given.
   */
  allowedHosts: AllowedHosts;
  /**
   * WISP_LAUNCH_ID, echoed by GET /health: the editor that started this server tells its own
   * answer from another server's on the same port (two windows starting at once).
   */
  launchId?: string;
  modelsDir: string;
  dataDir: string;
  threads: number;
  /**
   * Threads for evaluating prompts (decodes of more than 8 tokens), as llama.cpp's --threads-batch:
   * prompt evaluation is compute-bound and gains from more cores, generation of one token at a
   * time mostly does not.
   */
  threadsBatch: number;
  parallel: number;
  contextSize: number;
  /** Requests that may wait for a free sequence before the server answers 429. */
  maxQueue: number;
  /** Reuse evaluated prompt prefixes across requests (--no-prefix-reuse turns it off, to compare). */
  prefixReuse: boolean;
  /**
   * Speculative decoding from the prompt itself (input lookup): up to this many tokens predicted
   * per step from where the last generated tokens occur in the prompt, checked by the model in one
   * batch. 0 turns it off. Lossless: the output is the same, only the speed changes.
   */
  inputLookup: number;
  /**
   * Generation steps (a token per sequence) decoded and sampled on the server's thread by
   * build/native/decode-step.node where it is built, instead of as two jobs on node-llama-cpp's
   * thread pool per token (--no-native-step turns it off, to compare). Same text either way.
   */
  nativeStep: boolean;
  /**
   * Greedy one-line fill-in-the-middle requests answered with the line copied from the file that
   * the model finds most likely, where the file offers some (see line-choice.ts);
   * --no-line-candidates leaves every line to the model's own generation.
   */
  lineCandidates: boolean;
  /**
   * Where the file offers lines, the model's own line competes with them by the same likelihood
   * (generate-choices.ts, ownLine); --no-own-line answers with the likeliest copy alone, as a model
   * weaker at writing than at judging copies is better served.
   */
  ownLine: boolean;
  /** Largest accepted request body, bytes. */
  bodyLimit: number;
  /**
   * Longest time to receive a whole request (headers and body), ms: a client that sends too
   * slowly is cut off instead of holding a connection. Responses (streams) are not limited.
   */
  requestTimeoutMs: number;
  /** OpenAI-compatible engines whose models are served beside (or instead of) the local ones. */
  upstreams: UpstreamSpec[];
  /** Serve the models directory's models (false: only upstreams' models). */
  localModels: boolean;
  /** Per API key, over any minute; 0 is no limit. */
  rateLimit: RateLimit;
  /**
   * The PostgreSQL database that replicas share (a postgres:// URL); undefined: files in dataDir.
   * It may hold a password: it is never printed (see store/postgres/database-url.ts).
   */
  database?: string;
  /** Connections each replica keeps to the database at most. */
  databasePoolSize: number;
  /** While the database is away, keys checked before keep working from the cache this long, ms. */
  keyCacheGraceMs: number;
  /** A cached key is checked in the database again once it was checked this long ago, ms. */
  keyCacheMaxAgeMs: number;
  /** How often the key listener's connection must answer (and how long it has to), ms. */
  keyListenerHeartbeatMs: number;
  /** Usage records kept in memory while the database is away; beyond them new requests get 503. */
  usageQueueMax: number;
  /** How long a console login link (its one-time code) is good, ms. */
  loginCodeMs: number;
  /** On SIGTERM, how long /ready fails (and requests are still served) before the listener closes, ms. */
  drainDelayMs: number;
  /** On SIGTERM, the longest wait for the requests in flight to finish, ms. */
  drainGraceMs: number;
}

/** Whether the server is going away, and how many requests it is answering. */
export interface Lifecycle {
  draining: boolean;
  inFlight: number;
}

export interface ServerDeps {
  config: ServerConfig;
  registry: ModelRegistry;
  /** Keys, sessions, usage and rate-limit windows: files, or the database replicas share. */
  store: Store;
  /** The store's keys (the same as store.keys). */
  keys: KeyRecords;
  /** onRequest hook rejecting requests without a valid API key. */
  authenticate: (request: FastifyRequest) => Promise<void>;
  textEngine: TextEngine;
  imageEngine: ImageEngine;
  /** The upstream engines and their models (none unless configured). */
  upstreams: UpstreamRegistry;
  /** Counts tokens and images per API key and model as requests are served. */
  usage: UsageRecorder;
  /** GET /metrics: every Prometheus metric of this server. */
  metrics: ServerMetrics;
  lifecycle: Lifecycle;
  /** This server's version (server-version.ts), in GET /health and wisp_build_info. */
  version: string;
  log: (message: string) => void;
}

/** What a route group is registered with (beside fastify's own `prefix`). */
export interface RouteOptions {
  readonly deps: ServerDeps;
}

/** A route group: a fastify plugin whose routes read their body types from their schemas. */
export type RoutePlugin = FastifyPluginAsync<RouteOptions, RawServerDefault, JsonSchemaToTsProvider>;
