import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { embeddedModelIds, isEmbeddedModel, servesOnlyEmbeddedModels } from "../../../../src/core/onboarding/embedded-models";
import { DEFAULT_TEXT_MODEL_FILE } from "../../../../src/server/engines/default-models";
import { DEFAULT_IMAGE_MODEL_ID } from "../../../../src/server/engines/image/default-model/default-image-model";

const root = join(import.meta.dirname, "..", "..", "..", "..");
const model = (id: string, owned_by = "wisp") => ({ id, owned_by });

describe("the embedded models", () => {
  it("are the models the package ships and the defaults the server generates", () => {
    const shipped = readdirSync(join(root, "models")).filter((n) => !n.endsWith(".md") && !n.endsWith(".txt")).map((n) => n.replace(/\.gguf$/, ""));
    const expected = new Set([...shipped, DEFAULT_TEXT_MODEL_FILE.replace(/\.gguf$/, ""), DEFAULT_IMAGE_MODEL_ID]);
    assert.deepEqual(new Set(embeddedModelIds), expected);
  });

  it("are told apart by id, and by owner where the server says it", () => {
    assert.ok(isEmbeddedModel("wisp-coder"));
    assert.ok(isEmbeddedModel(model("wisp-tiny")));
    assert.ok(!isEmbeddedModel(model("wisp-coder", "team-upstream")), "an upstream of the same name is not Wisp's");
    assert.ok(!isEmbeddedModel("qwen2.5-coder-1.5b-q8_0"));
  });

  it("a server serves only them while it lists nothing else", () => {
    assert.ok(servesOnlyEmbeddedModels([model("wisp-coder"), model("wisp-tiny-diffusion")]));
    assert.ok(!servesOnlyEmbeddedModels([model("wisp-coder"), model("qwen2.5-coder-1.5b-q8_0")]));
    assert.ok(!servesOnlyEmbeddedModels([]), "a server that lists nothing serves nothing");
  });
});
