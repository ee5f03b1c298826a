import assert from "node:assert/strict";
import { copyFile, rm } from "node:fs/promises";
import path from "node:path";
import type { RecordedUsage } from "../../src/server/usage/usage-recorder";
import { waitFor } from "../harness/wait-for";
import { ConsoleClient } from "./support/console-client";
import { counted, metricsOf, neverEnd, readSse, TEXT_MODEL } from "./server-fixture";
import { gatewayForSuite, openStream } from "./upstream-fixture";

type Chunk = { choices: { delta?: { content?: string }; text?: string }[]; usage?: { prompt_tokens: number; completion_tokens: number } | null };
/** The counted tokens: the second of two same requests finds the prompt cached upstream, the first not. */
const textOf = (events: unknown[]) =>
  (events.filter((e) => e !== "[DONE]") as Chunk[]).map((e) => e.choices.map((c) => c.delta?.content ?? c.text ?? "").join("")).join("");

describe("upstream engines behind a gateway wisp-server", function () {
  this.timeout(120_000);
  const current = gatewayForSuite(["a", "b"]);
  const gateway = () => current().gateway;
  const direct = () => current().upstreams.a!;

  it("lists the upstreams' model once, owned by both replicas, with the context window they report", async () => {
    const listed = (await (await gateway().fetch("/v1/models")).json()) as { data: { id: string; owned_by: string; context_length?: number }[] };
    const upstream = (await (await direct().fetch("/v1/models")).json()) as { data: { id: string; context_length?: number }[] };
    assert.deepEqual(listed.data.map((m) => [m.id, m.owned_by, m.context_length]), upstream.data.map((m) => [m.id, "a,b", m.context_length]));
  });

  it("picks up a model an upstream adds, at its next periodic check", async () => {
    const models = path.join(direct().dir, "models");
    await copyFile(path.join(models, `${TEXT_MODEL}.gguf`), path.join(models, "wisp-tiny-added.gguf"));
    const listed = await waitFor(
      "the gateway to list the added model",
      async () => ((await (await gateway().fetch("/v1/models")).json()) as { data: { id: string; owned_by: string }[] }).data,
      (data) => data.some((m) => m.id === "wisp-tiny-added"),
    );
    assert.equal(listed.find((m) => m.id === "wisp-tiny-added")!.owned_by, "a");
    await rm(path.join(models, "wisp-tiny-added.gguf"));
  });

  it("streams chat through with the upstream's exact text, adding no usage chunk the client did not ask for", async () => {
    const body = { model: TEXT_MODEL, messages: [{ role: "user", content: "Say something." }], max_tokens: 12, temperature: 0.8, seed: 7, stream: true };
    const through = await readSse(await gateway().fetch("/v1/chat/completions", { json: body }));
    const straight = await readSse(await direct().fetch("/v1/chat/completions", { json: body }));
    assert.equal(textOf(through), textOf(straight));
    assert.ok(textOf(through).length > 0);
    assert.equal(through.at(-1), "[DONE]");
    assert.equal((through as Chunk[]).filter((e) => e.usage).length, 0);
  });

  it("streams a fill-in-the-middle completion (suffix) through, with usage when asked, as the upstream answers it", async () => {
    const body = { model: TEXT_MODEL, prompt: "function add(a, b) {\n  return ", suffix: ";\n}\n", max_tokens: 10, temperature: 0, stream: true, stream_options: { include_usage: true } };
    const through = await readSse(await gateway().fetch("/v1/completions", { json: body }));
    const straight = await readSse(await direct().fetch("/v1/completions", { json: body }));
    assert.equal(textOf(through), textOf(straight));
    const usage = (events: unknown[]) => (events as Chunk[]).find((e) => e.usage)?.usage;
    assert.deepEqual(counted(usage(through)), counted(usage(straight)));
    assert.equal(usage(through)!.completion_tokens, 10);
  });

  it("answers a non-streamed completion with the upstream's body, through the openai client", async () => {
    const request = { model: TEXT_MODEL, prompt: "The answer is", max_tokens: 8, temperature: 0 };
    const through = await gateway().client.completions.create(request);
    const straight = await direct().client.completions.create(request);
    assert.deepEqual([through.choices, counted(through.usage)], [straight.choices, counted(straight.usage)]);
  });

  it("forwards image generation to an upstream that has an image model, with the same image for the same seed", async () => {
    const body = { model: "wisp-tiny-diffusion", prompt: "a small red square", width: 64, height: 64, num_inference_steps: 1, seed: 11 };
    const usage = gateway().deps.store.usage;
    const record = usage.record;
    const stored: RecordedUsage[] = [];
    usage.record = (event) => (stored.push(event), record.call(usage, event));
    const through = await gateway().fetch("/v1/images/generations", { json: body }).finally(() => (usage.record = record));
    assert.equal(through.status, 200);
    // The key is charged the upstream's images as it would be a local image model's.
    assert.deepEqual(stored.map((e) => [e.model, e.status, e.images]), [["wisp-tiny-diffusion", 200, 1]]);
    assert.match(through.headers.get("x-wisp-upstream") ?? "", /^(a|b)$/);
    const image = (r: Response) => r.json().then((j: { data: { b64_json: string }[] }) => j.data[0]!.b64_json);
    assert.equal(await image(through), await image(await direct().fetch("/v1/images/generations", { json: body })));
  });

  it("returns the upstream's errors in the OpenAI shape, naming the upstream", async () => {
    const response = await gateway().fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: "x", max_tokens: -1 } });
    assert.equal(response.status, 400);
    const { error } = (await response.json()) as { error: { message: string; type: string; param: string } };
    assert.match(error.message, /^upstream (a|b): max_tokens /);
    assert.equal(error.type, "invalid_request_error");
    assert.equal(error.param, "max_tokens");
  });

  it("closes the upstream request at once when the client disconnects mid-stream", async () => {
    const before = (await Promise.all(Object.values(current().upstreams).map(metricsOf))).reduce((n, m) => n + m.aborted, 0);
    const logitBias = await neverEnd(direct());
    const { request } = await openStream(gateway(), "/chat/completions", { model: TEXT_MODEL, messages: [{ role: "user", content: "Go on forever." }], max_tokens: 100_000, logit_bias: logitBias });
    request.destroy();
    await waitFor(
      "an upstream to report the aborted generation",
      async () => Promise.all(Object.values(current().upstreams).map(metricsOf)),
      (all) => all.reduce((n, m) => n + m.aborted, 0) === before + 1 && all.every((m) => m.sequences.busy === 0),
    );
  });

  it("closes the upstream request when the client leaves before a non-streamed answer", async () => {
    const upstreams = Object.values(current().upstreams);
    const abortedSoFar = async () => (await Promise.all(upstreams.map(metricsOf))).reduce((n, m) => n + m.aborted, 0);
    const before = await abortedSoFar();
    const client = new AbortController();
    const body = { model: TEXT_MODEL, prompt: "A long story:", max_tokens: 100_000, logit_bias: await neverEnd(direct()) };
    const answer = gateway().fetch("/v1/completions", { json: body, signal: client.signal }).catch((error: Error) => error);
    await waitFor("an upstream generating", async () => Promise.all(upstreams.map(metricsOf)), (all) => all.some((m) => m.sequences.busy > 0));
    client.abort();
    assert.equal(((await answer) as Error).name, "AbortError");
    await waitFor("the upstream to stop", async () => ({ aborted: await abortedSoFar(), busy: (await Promise.all(upstreams.map(metricsOf))).map((m) => m.sequences.busy) }), (m) => m.aborted === before + 1 && m.busy.every((b) => b === 0));
  });

  it("counts each key's usage from the upstream's reported tokens, streamed or not", async () => {
    const client = new ConsoleClient(gateway().origin);
    await client.login(`token=${encodeURIComponent(gateway().adminToken)}`);
    await client.connect();
    const testKey = (await gateway().deps.keys.list()).find((k) => k.name === "test")!.id;
    const spent = async () => {
      const { buckets } = (await (await client.request("GET", "/console/api/usage")).json()) as { buckets: { key: string; model: string; requests: number; prompt_tokens: number; completion_tokens: number }[] };
      const mine = buckets.filter((b) => b.key === testKey && b.model === TEXT_MODEL);
      return { requests: mine.reduce((n, b) => n + b.requests, 0), prompt: mine.reduce((n, b) => n + b.prompt_tokens, 0), completion: mine.reduce((n, b) => n + b.completion_tokens, 0) };
    };
    const before = await spent();
    const messages = [{ role: "user" as const, content: "Count me." }];
    const nonStreamed = await gateway().client.chat.completions.create({ model: TEXT_MODEL, messages, max_tokens: 5, temperature: 0 });
    const streamed = await readSse(await gateway().fetch("/v1/chat/completions", { json: { model: TEXT_MODEL, messages, max_tokens: 7, temperature: 0, stream: true } }));
    assert.equal(streamed.at(-1), "[DONE]");
    const reported = await direct().client.chat.completions.create({ model: TEXT_MODEL, messages, max_tokens: 7, temperature: 0 });
    const expected = { requests: before.requests + 2, prompt: before.prompt + nonStreamed.usage!.prompt_tokens + reported.usage!.prompt_tokens, completion: before.completion + 5 + 7 };
    const seen = await waitFor("the key's usage", spent, (u) => u.requests >= expected.requests);
    assert.deepEqual(seen, expected);
  });
});
