import assert from "node:assert/strict";
import { defaultLocations, fileLocations } from "../../../../src/core/customization/file-locations";

describe("where customization files are read (VS Code's chat.*FilesLocations settings)", () => {
  const read = (settings: Record<string, unknown>) => fileLocations((key) => settings[key]).map((l) => `${l.kind} ${l.path}${l.nested ? " nested" : ""}${l.absolute ? " absolute" : ""}`);

  it("without settings: Copilot's own folders", () => {
    assert.deepEqual(fileLocations(() => undefined), defaultLocations);
  });

  it("folders a setting turns on are added after Copilot's own: relative to each workspace folder, or absolute (~ too); instructions' with their subfolders", () => {
    assert.deepEqual(
      read({
        "chat.promptFilesLocations": { ".agents/prompts": true, "./shared/prompts/": true, ".github/prompts": true },
        "chat.agentFilesLocations": { ".agents": true, "~/.copilot/agents": true },
        "chat.modeFilesLocations": { "../team/modes": true },
        "chat.instructionsFilesLocations": { "/srv/team/instructions": true, "docs\\rules": true },
      }),
      [
        "prompts .github/prompts",
        "agents .github/agents",
        "agents .github/chatmodes",
        "instructions .github/instructions nested",
        "prompts .agents/prompts",
        "prompts shared/prompts",
        "agents .agents",
        "agents ~/.copilot/agents absolute",
        "agents ../team/modes",
        "instructions /srv/team/instructions nested absolute",
        "instructions docs/rules nested",
      ],
    );
  });

  it("a folder set to false is not read, Copilot's own too; a list of paths (older settings) turns them on; globs and other values are left out", () => {
    assert.deepEqual(read({ "chat.promptFilesLocations": { ".github/prompts": false, prompts: true }, "chat.agentFilesLocations": { ".github/chatmodes": false } }), ["agents .github/agents", "instructions .github/instructions nested", "prompts prompts"]);
    assert.deepEqual(read({ "chat.promptFilesLocations": [".github/prompts", "more/prompts", 7], "chat.instructionsFilesLocations": { "**/rules": true, "x": "yes" } }).slice(4), ["prompts more/prompts"]);
    assert.deepEqual(read({ "chat.promptFilesLocations": "prompts" }), read({}));
  });
});
