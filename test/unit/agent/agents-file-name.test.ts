import assert from "node:assert/strict";
import { agentsFileIn } from "../../../src/core/agent/agents-file-name";

describe("the name of a folder's AGENTS.md", () => {
  it("takes agents.md or Agents.md as AGENTS.md (as macOS and Windows disks find them), AGENTS.md itself first", () => {
    assert.equal(agentsFileIn(["README.md", "agents.md", "src"]), "agents.md");
    assert.equal(agentsFileIn(["Agents.md"]), "Agents.md");
    assert.equal(agentsFileIn(["agents.md", "AGENTS.md"]), "AGENTS.md");
    assert.equal(agentsFileIn(["README.md", "AGENTS.markdown", "my-agents.md"]), undefined);
  });
});
