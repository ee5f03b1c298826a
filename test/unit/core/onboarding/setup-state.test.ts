import assert from "node:assert/strict";
import type { ModelInfo } from "../../../../src/core/api/models";
import { servesRealTextModel, setupState } from "../../../../src/core/onboarding/setup-state";

const model = (id: string, kind = "text", owned_by = "wisp"): ModelInfo => ({ id, object: "model", created: 0, owned_by, kind });
const ready = { kind: "ready", modelCount: 1 } as const;
const stopped = { kind: "stopped" } as const;

describe("setupState: what the chat's welcome content explains", () => {
  it("is ok while a chat model is there", () => {
    assert.equal(setupState(ready, stopped, [model("wisp-coder")], ""), "ok");
  });

  it("names what is wrong: no server, no key, a refused key, no chat model", () => {
    assert.equal(setupState({ kind: "unreachable", message: "refused" }, stopped, [], ""), "unreachable");
    assert.equal(setupState({ kind: "no-key" }, stopped, [], ""), "no-key");
    assert.equal(setupState({ kind: "bad-key", message: "401" }, stopped, [], ""), "bad-key");
    assert.equal(setupState(ready, stopped, [model("sd-turbo", "image")], ""), "no-chat-model");
  });

  it("a chat model set by the user counts even when the server does not say its kind", () => {
    assert.equal(setupState(ready, stopped, [model("sd-turbo", "image")], "my-chat"), "ok");
  });

  it("says nothing while the local server starts", () => {
    assert.equal(setupState({ kind: "unreachable", message: "refused" }, { kind: "starting", port: 8765 }, [], ""), "starting");
  });

  it("tells a real text model from the embedded ones", () => {
    assert.ok(!servesRealTextModel([model("wisp-coder"), model("wisp-tiny-diffusion", "image")]));
    assert.ok(servesRealTextModel([model("wisp-coder"), model("qwen2.5-coder-1.5b-q8_0")]));
    assert.ok(!servesRealTextModel([model("wisp-coder"), model("sd-turbo", "image")]), "an image model does not write code");
  });
});
