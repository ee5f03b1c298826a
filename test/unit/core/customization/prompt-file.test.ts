import assert from "node:assert/strict";
import { parsePromptFile, promptAgent } from "../../../../src/core/customization/prompt-file";

describe("the agent a prompt file runs in", () => {
  const prompt = (front: string) => parsePromptFile("p.prompt.md", "p", `---\n${front}\n---\nDo it.`);

  it("a prompt with tools and no agent keeps the custom agent or Plan chosen in the switch (as VS Code), with its tools", () => {
    const withTools = prompt("tools: [read_file, editFiles]");
    assert.equal(promptAgent(withTools, "agent"), undefined, "the switch's agent (reviewer, Plan or Agent) runs it");
    assert.equal(promptAgent(withTools, "ask"), "agent", "from Ask, tools need Agent");
  });

  it("without tools or agent, it runs where the switch is; its own agent: always wins", () => {
    assert.equal(promptAgent(prompt("description: x"), "ask"), undefined);
    assert.equal(promptAgent(prompt("description: x"), "agent"), undefined);
    assert.equal(promptAgent(prompt("agent: reviewer\ntools: [read_file]"), "ask"), "reviewer");
    assert.equal(promptAgent(prompt("mode: ask\ntools: [read_file]"), "agent"), "ask");
  });

  it("a prompt file named in a language with accents or another script is a / command of that name (créer-test.prompt.md is /créer-test)", () => {
    for (const [file, name] of [["créer-test.prompt.md", "créer-test"], ["テスト作成.prompt.md", "テスト作成"], ["cre\u0301er-test.prompt.md", "créer-test"]]) {
      const parsed = parsePromptFile(file!, "p", "Do it.");
      assert.equal(parsed.name, name, file);
      assert.deepEqual(parsed.problems, [], file);
    }
    assert.equal(parsePromptFile("p.prompt.md", "p", "---\nname: résumé\n---\nDo it.").name, "résumé");
  });
});
