import assert from "node:assert/strict";
import { expandHome } from "../../../../src/core/base/home-path";

describe("expandHome (wisp.chat.userPromptsFolder, wisp.localServer.modelsDir)", () => {
  it("reads ~ as the home folder, also before a Windows backslash", () => {
    assert.equal(expandHome("~", "/home/ada"), "/home/ada");
    assert.equal(expandHome("~/prompts", "/home/ada"), "/home/ada/prompts");
    assert.equal(expandHome("~\\prompts", "C:\\Users\\ada"), "C:\\Users\\ada\\prompts");
  });

  it("leaves other paths, and ~ inside a name, as they are", () => {
    for (const path of ["/srv/prompts", "C:\\prompts", "~ada/prompts", "prompts/~", "x~/y"]) assert.equal(expandHome(path, "/home/ada"), path);
  });
});
