// Seeded, reproducible fuzz cases for the HTTP API: valid bodies mutated field by field, bodies
// replaced by other JSON or by broken bytes, and headers (content type, authorization) varied.
import { IMAGE_MODEL, TEXT_MODEL } from "./reliability-server";

export interface FuzzCase {
  readonly endpoint: string;
  readonly method: "GET" | "POST";
  readonly path: string;
  /** The raw body (undefined: none). */
  readonly body?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** What was done to the valid request, for the failure message. */
  readonly mutation: string;
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Endpoint {
  readonly name: string;
  readonly path: string;
  /** A small valid body: generations stay short so the run is bounded. */
  readonly valid: () => Record<string, Json>;
  /** Fields the endpoint reads, each mutated in turn. */
  readonly fields: readonly string[];
}

const endpoints: readonly Endpoint[] = [
  {
    name: "chat",
    path: "/v1/chat/completions",
    valid: () => ({ model: TEXT_MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 4 }),
    fields: ["model", "messages", "max_tokens", "temperature", "top_p", "top_k", "n", "stream", "stream_options", "stop", "presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "user", "guided_json", "response_format", "seed"],
  },
  {
    name: "completions",
    path: "/v1/completions",
    valid: () => ({ model: TEXT_MODEL, prompt: "def f(", max_tokens: 4 }),
    fields: ["model", "prompt", "suffix", "max_tokens", "temperature", "top_p", "top_k", "n", "stream", "stream_options", "stop", "presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "seed", "echo"],
  },
  {
    name: "images",
    path: "/v1/images/generations",
    valid: () => ({ model: IMAGE_MODEL, prompt: "a red fox", width: 64, height: 64, num_inference_steps: 1 }),
    fields: ["model", "prompt", "negative_prompt", "width", "height", "size", "num_inference_steps", "guidance_scale", "seed", "response_format", "response_extension", "n"],
  },
];

const deep = (depth: number): Json => (depth === 0 ? 1 : [deep(depth - 1)]);

/** Values that break parsers and validators: types, bounds, sizes, encodings. */
const nasty: readonly Json[] = [
  null, true, false, 0, -1, 1, 2, 1.5, -0.5, 1e-12, 1e9, -1e9, 2 ** 31, 2 ** 53 + 2, 1e308,
  "", " ", "a", "0", "-1", "true", "null", "NaN", "Infinity", "x".repeat(5000), "\u0000\ud800\uffff", "😀".repeat(50),
  "<script>alert(1)</script>", "../../etc/passwd", "%n%s%x", [], [1], ["a"], [null], [[]], {}, { a: 1 }, { type: "json_object" },
  { type: "json_schema", json_schema: { name: "x", schema: { type: "object" } } }, { "123": 100 }, { "-1": "x" }, deep(60),
  [{ role: "user", content: "hi" }], [{ role: "system", content: "" }], [{ role: "tool", content: "x" }], [{ role: "user" }],
  [{ role: "user", content: [{ type: "text", text: "hi" }] }], [{ role: "user", content: null }], Array(300).fill({ role: "user", content: "hi" }),
];

const contentTypes = ["application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1", "", "*/*"];

export function generateCases(seed: number, count: number, key: string): FuzzCase[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const authorizations = [`Bearer ${key}`, "", "Bearer", "Bearer ", `Basic ${key}`, `Bearer ${key}x`, `bearer ${key}`, `Bearer ${key} ${key}`, "Bearer wisp-" + "A".repeat(43), `Bearer ${"k".repeat(8000)}`];
  const cases: FuzzCase[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.06) {
      // Other routes and methods.
      const path = pick(["/v1/models", "/v1/models/" + TEXT_MODEL, "/v1/nothing", "/v1", "/", "/health", "/metrics", "/v1/chat/completions?x=1", "/v1//completions", "/v1/completions/../models"]);
      const method = pick(["GET", "POST"] as const);
      const body = method === "POST" && random() < 0.5 ? "{}" : undefined;
      cases.push({ endpoint: "routes", method, path, headers: { authorization: pick(authorizations) }, body, mutation: `route ${path}` });
      continue;
    }
    const endpoint = pick(endpoints);
    const body = endpoint.valid();
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const done: string[] = [];
    let raw: string | undefined;
    if (roll < 0.14) {
      const header = random() < 0.5 ? "authorization" : "content-type";
      headers[header] = header === "authorization" ? pick(authorizations) : pick(contentTypes);
      done.push(`${header}=${JSON.stringify(headers[header]!.slice(0, 40))}`);
    }
    if (roll < 0.24 && roll >= 0.14) {
      const whole = pick(["truncate", "bytes", "empty", "value", "bom", "proto", "duplicate"] as const);
      const text = JSON.stringify(body);
      raw =
        whole === "truncate" ? text.slice(0, Math.floor(random() * text.length)) :
        whole === "bytes" ? String.fromCharCode(...Array.from({ length: 40 }, () => Math.floor(random() * 256))) :
        whole === "empty" ? "" :
        whole === "value" ? JSON.stringify(pick(nasty)) :
        whole === "bom" ? `\ufeff${text}` :
        whole === "proto" ? text.replace("{", '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},') :
        text.replace("{", `{"model":${JSON.stringify(pick(nasty))},`);
      done.push(`body ${whole}`);
    } else {
      const mutations = 1 + Math.floor(random() * 3);
      for (let m = 0; m < mutations; m++) {
        const field = random() < 0.9 ? pick(endpoint.fields) : `unknown_${Math.floor(random() * 100)}`;
        if (random() < 0.15) {
          delete body[field];
          done.push(`-${field}`);
        } else {
          body[field] = pick(nasty);
          done.push(`${field}=${JSON.stringify(body[field]).slice(0, 40)}`);
        }
      }
    }
    cases.push({ endpoint: endpoint.name, method: "POST", path: endpoint.path, body: raw ?? JSON.stringify(body), headers, mutation: done.join(", ") });
  }
  return cases;
}
