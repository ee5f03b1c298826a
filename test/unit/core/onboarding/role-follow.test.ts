import assert from "node:assert/strict";
import { describeFollow, planFollow } from "../../../../src/core/onboarding/role-follow";

describe("planFollow: the roles a downloaded model takes over", () => {
  const model = "qwen2.5-coder-1.5b-q8_0";

  it("a coder model takes completion and chat while they are the server's default", () => {
    assert.deepEqual(planFollow("coder", model, { completion: "", chat: "" }, {}), { take: [{ role: "completion", previous: "" }, { role: "chat", previous: "" }], kept: [] });
  });

  it("keeps a model the user chose, and takes over one Wisp set when it followed an earlier download", () => {
    const plan = planFollow("coder", model, { completion: "qwen2.5-coder-0.5b-q8_0", chat: "my-chat" }, { completion: "qwen2.5-coder-0.5b-q8_0" });
    assert.deepEqual(plan, { take: [{ role: "completion", previous: "qwen2.5-coder-0.5b-q8_0" }], kept: ["chat"] });
  });

  it("a chat model takes only chat, a next-edit model only next edit", () => {
    assert.deepEqual(planFollow("chat", "qwen3-0.6b", { completion: "", chat: "" }, {}).take.map((t) => t.role), ["chat"]);
    assert.deepEqual(planFollow("next-edit", "sweep", { nextEdit: "" }, {}).take.map((t) => t.role), ["nextEdit"]);
  });

  it("leaves a role that already has this model alone", () => {
    assert.deepEqual(planFollow("coder", model, { completion: model, chat: "" }, {}).take.map((t) => t.role), ["chat"]);
  });

  it("tells the user what the model now does", () => {
    assert.equal(describeFollow(model, ["completion", "chat"]), `${model} now writes ghost text and answers in the chat.`);
    assert.equal(describeFollow("sweep", ["nextEdit"]), "sweep now predicts next edits.");
  });
});
