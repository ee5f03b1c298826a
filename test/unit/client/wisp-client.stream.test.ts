import assert from "node:assert/strict";
import { WispClient } from "../../../src/client/wisp-client";
import { WispError } from "../../../src/client/wisp-error";
import {
  LoopbackApi,
  chatChunk,
  collect,
  completionChunk,
  sendJson,
  sseText,
  startSse,
  writeByteByByte,
} from "../../harness/loopback-api";

const key = "sk-test-0123456789";

describe("WispClient streams", () => {
  let api: LoopbackApi;
  let client: WispClient;

  beforeEach(async () => {
    api = await LoopbackApi.start();
    client = new WispClient({ baseUrl: api.baseUrl, apiKey: key, timeoutMs: 2000 });
  });
  afterEach(() => api.close());

  it("streams a completion split one byte at a time, across multi-byte characters and CRLFs", async () => {
    const pieces = ["héllo ", "wörld ", "→ 😀", " 中文"];
    api.handle(async (_req, res) => {
      startSse(res);
      await writeByteByByte(res, ": keep-alive comment\r\n\r\n");
      await writeByteByByte(res, sseText([...pieces.map((p) => completionChunk(p)), completionChunk("", "length")], "\r\n"));
      res.end();
    });

    const deltas = await collect(
      client.streamCompletion({ model: "tiny", prompt: "def f(", suffix: "):\n", max_tokens: 8, temperature: 0, stop: ["\n\n"] }),
    );

    assert.equal(deltas.map((d) => d.text).join(""), pieces.join(""));
    assert.equal(deltas.at(-1)?.finishReason, "length");
    assert.equal(api.last.method, "POST");
    assert.equal(api.last.path, "/v1/completions");
    assert.equal(api.last.headers.authorization, `Bearer ${key}`);
    assert.deepEqual(JSON.parse(api.last.body), {
      model: "tiny",
      prompt: "def f(",
      suffix: "):\n",
      max_tokens: 8,
      temperature: 0,
      stop: ["\n\n"],
      stream: true,
    });
  });

  it("streams chat content, skipping the role-only first chunk, with the usage of the last chunk", async () => {
    api.handle(async (_req, res) => {
      startSse(res);
      const usageOnly = { ...chatChunk(undefined), choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } };
      const roleOnly = { ...chatChunk(undefined), choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] };
      await writeByteByByte(res, sseText([roleOnly, chatChunk("Ça "), chatChunk("va ✓"), chatChunk(undefined, "stop"), usageOnly]));
      res.end();
    });

    const messages = [
      { role: "system" as const, content: "Be brief." },
      { role: "user" as const, content: "How are you?" },
    ];
    const deltas = await collect(client.streamChat({ model: "tiny", messages, max_tokens: 16 }));

    assert.deepEqual(deltas, [
      { content: "Ça " },
      { content: "va ✓" },
      { content: "", finishReason: "stop" },
      { content: "", usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
    ]);
    assert.equal(api.last.path, "/v1/chat/completions");
    assert.deepEqual(JSON.parse(api.last.body), { model: "tiny", messages, max_tokens: 16, stream: true });
  });

  it("accepts multi-line data fields and a stream whose last event has no blank line", async () => {
    api.handle((_req, res) => {
      startSse(res);
      // One JSON payload spread over two data lines: the parser joins them with "\n", which JSON allows.
      res.end(`data: {"choices": [{"index": 0,\ndata: "text": "ok", "finish_reason": "stop"}]}\n\ndata: [DONE]\n`);
    });
    const deltas = await collect(client.streamCompletion({ model: "tiny", prompt: "x" }));
    assert.deepEqual(deltas, [{ text: "ok", finishReason: "stop" }]);
  });

  it("shows the text parts of content sent as a list of parts (Mistral's reasoning models), not their thinking", async () => {
    const withContent = (content: unknown) => ({ ...chatChunk(undefined), choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    api.handle((_req, res) => {
      startSse(res);
      res.end(
        sseText([
          withContent([{ type: "thinking", thinking: [{ type: "text", text: "The user greets me." }] }]),
          withContent([{ type: "text", text: "Hel" }]),
          withContent("lo"),
          chatChunk(undefined, "stop"),
        ]),
      );
    });
    const deltas = await collect(client.streamChat({ model: "magistral", messages: [] }));
    assert.deepEqual(deltas, [{ content: "Hel" }, { content: "lo" }, { content: "", finishReason: "stop" }]);
  });

  it("passes on thinking a server sends apart (reasoning_content, reasoning) beside the answer, never as it", async () => {
    const withDelta = (delta: unknown) => ({ ...chatChunk(undefined), choices: [{ index: 0, delta, finish_reason: null }] });
    api.handle((_req, res) => {
      startSse(res);
      res.end(sseText([withDelta({ role: "assistant", content: null, reasoning_content: "The user " }), withDelta({ reasoning: "greets me." }), withDelta({ content: "Hello" }), chatChunk(undefined, "stop")]));
    });
    const deltas = await collect(client.streamChat({ model: "qwen3", messages: [] }));
    assert.deepEqual(deltas, [{ content: "", reasoning: "The user " }, { content: "", reasoning: "greets me." }, { content: "Hello" }, { content: "", finishReason: "stop" }]);
  });

  it("ends at a [DONE] padded with spaces, taking nothing after it", async () => {
    api.handle((_req, res) => {
      startSse(res);
      res.end(`${sseText([chatChunk("ok", "stop")], "\r\n", false)}data:  [DONE]  \r\n\r\ndata: {"not": "read"}\r\n\r\n`);
    });
    const deltas = await collect(client.streamChat({ model: "tiny", messages: [] }));
    assert.deepEqual(deltas, [{ content: "ok", finishReason: "stop" }]);
  });

  it("asks again without stream_options where the server refuses the field (Azure OpenAI before api-version 2024-09-01-preview)", async () => {
    api.handle((req, res) => {
      const body = JSON.parse(req.body) as Record<string, unknown>;
      if ("stream_options" in body) {
        sendJson(res, 400, { error: { code: null, message: "Unrecognized request argument supplied: stream_options", param: null, type: "invalid_request_error" } });
        return;
      }
      startSse(res);
      res.end(sseText([chatChunk("hello"), chatChunk(undefined, "stop")]));
    });
    const messages = [{ role: "user" as const, content: "hi" }];
    const deltas = await collect(client.streamChat({ model: "tiny", messages, stream_options: { include_usage: true } }));
    assert.deepEqual(deltas, [{ content: "hello" }, { content: "", finishReason: "stop" }]);
    assert.equal(api.requests.length, 2);
    assert.deepEqual(JSON.parse(api.last.body), { model: "tiny", messages, stream: true });
  });

  it("does not ask again for a refusal that is not about stream_options", async () => {
    api.handle((_req, res) => sendJson(res, 400, { error: { message: "messages: stream_options was fine, but the role 'bot' is unknown", type: "invalid_request_error" } }));
    await assert.rejects(
      collect(client.streamChat({ model: "tiny", messages: [], stream_options: { include_usage: true } })),
      (e: unknown) => e instanceof WispError && e.kind === "bad-request",
    );
    assert.equal(api.requests.length, 1);
  });

  it("takes a whole JSON answer from a server that ignores stream: true", async () => {
    api.handle((_req, res) =>
      sendJson(res, 200, {
        id: "c",
        object: "chat.completion",
        created: 1,
        model: "tiny",
        choices: [{ index: 0, message: { role: "assistant", content: "all at once" }, finish_reason: "stop" }],
      }),
    );
    const deltas = await collect(client.streamChat({ model: "tiny", messages: [{ role: "user", content: "hi" }] }));
    assert.deepEqual(deltas, [{ content: "all at once", finishReason: "stop" }]);
  });

  it("closes the connection at once when the signal aborts mid-stream", async () => {
    api.handle((_req, res) => {
      startSse(res);
      res.write(sseText([completionChunk("first")], "\n", false));
      // ...and then never another byte.
    });
    const controller = new AbortController();
    const seen: string[] = [];
    const failure = (async () => {
      for await (const delta of client.streamCompletion({ model: "tiny", prompt: "x" }, controller.signal)) {
        seen.push(delta.text);
        controller.abort();
      }
    })();

    await assert.rejects(failure, (e: unknown) => e instanceof WispError && e.kind === "cancelled");
    assert.deepEqual(seen, ["first"]);
    await api.last.closed;
  });

  it("closes the connection when the signal aborts before the headers arrive", async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    api.handle(() => arrived());
    const controller = new AbortController();
    const failure = collect(client.streamChat({ model: "tiny", messages: [] }, controller.signal));
    await requestArrived;
    controller.abort();
    await assert.rejects(failure, (e: unknown) => e instanceof WispError && e.kind === "cancelled");
    await api.last.closed;
  });

  it("closes the connection when the consumer stops reading early", async () => {
    api.handle((_req, res) => {
      startSse(res);
      res.write(sseText([completionChunk("a"), completionChunk("b")], "\n", false));
    });
    for await (const delta of client.streamCompletion({ model: "tiny", prompt: "x" })) {
      assert.equal(delta.text, "a");
      break;
    }
    await api.last.closed;
  });

  it("does not send a request when the signal is already aborted", async () => {
    const failure = collect(client.streamCompletion({ model: "tiny", prompt: "x" }, AbortSignal.abort()));
    await assert.rejects(failure, (e: unknown) => e instanceof WispError && e.kind === "cancelled");
    assert.equal(api.requests.length, 0);
  });

  it("reports a connection dropped mid-stream as unreachable, after the text that arrived", async () => {
    let arrived: () => void = () => {};
    const partialArrived = new Promise<void>((done) => (arrived = done));
    api.handle((_req, res) => {
      startSse(res);
      res.write(sseText([completionChunk("partial")], "\n", false));
      // Dropped once the client has the text, however long that takes.
      void partialArrived.then(() => res.socket?.destroy());
    });
    const seen: string[] = [];
    const failure = (async () => {
      for await (const delta of client.streamCompletion({ model: "tiny", prompt: "x" })) {
        seen.push(delta.text);
        arrived();
      }
    })();
    await assert.rejects(failure, (e: unknown) => {
      assert.ok(e instanceof WispError);
      assert.equal(e.kind, "unreachable");
      assert.match(e.message, /lost/);
      assert.ok(e.message.includes(api.baseUrl));
      return true;
    });
    assert.deepEqual(seen, ["partial"]);
  });

  it("times out a stream that stalls after the headers, and closes it", async () => {
    const quick = new WispClient({ baseUrl: api.baseUrl, apiKey: key, timeoutMs: 150 });
    api.handle((_req, res) => {
      startSse(res);
      res.write(sseText([completionChunk("slow")], "\n", false));
    });
    await assert.rejects(
      collect(quick.streamCompletion({ model: "tiny", prompt: "x" })),
      (e: unknown) => e instanceof WispError && e.kind === "timeout",
    );
    await api.last.closed;
  });

  for (const [name, body] of [
    ["invalid JSON in an event", "data: {not json\n\n"],
    ["an event without choices", 'data: {"id": "x"}\n\n'],
    ["a choice whose text is not a string", 'data: {"choices": [{"index": 0, "text": 42}]}\n\n'],
    ["a stream that ends before [DONE] and before any finish_reason", sseText([completionChunk("cut")], "\n", false)],
  ] as const) {
    it(`reports ${name} as malformed`, async () => {
      api.handle((_req, res) => {
        startSse(res);
        res.end(body);
      });
      await assert.rejects(collect(client.streamCompletion({ model: "tiny", prompt: "x" })), (e: unknown) => {
        assert.ok(e instanceof WispError);
        assert.equal(e.kind, "malformed");
        assert.ok(e.message.includes(api.baseUrl));
        return true;
      });
    });
  }

  it("reports an error event sent mid-stream with the server's message", async () => {
    api.handle((_req, res) => {
      startSse(res);
      res.end(`${sseText([chatChunk("par")], "\n", false)}data: {"error": {"message": "engine crashed", "type": "server_error"}}\n\n`);
    });
    await assert.rejects(collect(client.streamChat({ model: "tiny", messages: [] })), (e: unknown) => {
      assert.ok(e instanceof WispError);
      assert.equal(e.kind, "server");
      assert.match(e.message, /engine crashed/);
      return true;
    });
  });

  for (const [name, errorEvent] of [
    // llama.cpp's server, then [DONE] as after any stream: the answer looked complete, cut short.
    ["llama.cpp's error: line", 'error: {"code":500,"message":"the request exceeds the available context size","type":"server_error"}\n\ndata: [DONE]\n\n'],
    ["an event: error", 'event: error\ndata: {"message":"the request exceeds the available context size","type":"overloaded_error"}\n\n'],
    ["an event: error with plain text", "event: error\ndata: the request exceeds the available context size\n\n"],
  ] as const) {
    it(`reports ${name} sent mid-stream with the server's message, not as the answer's end`, async () => {
      api.handle((_req, res) => {
        startSse(res);
        res.end(`${sseText([chatChunk("par")], "\n", false)}${errorEvent}`);
      });
      const seen: string[] = [];
      const failure = (async () => {
        for await (const delta of client.streamChat({ model: "tiny", messages: [] })) seen.push(delta.content);
      })();
      await assert.rejects(failure, (e: unknown) => {
        assert.ok(e instanceof WispError);
        assert.equal(e.kind, "server");
        assert.match(e.message, /reported an error: the request exceeds the available context size$/);
        return true;
      });
      assert.deepEqual(seen, ["par"]);
    });
  }
});
