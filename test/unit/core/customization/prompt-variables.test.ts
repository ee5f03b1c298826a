import assert from "node:assert/strict";
import { inputVariables, inputsFromArgument, linkedFiles, promptMessage, resolveVariables } from "../../../../src/core/customization/prompt-variables";

describe("prompt files: variables, links and the argument", () => {
  const facts = { selection: "const total = 1;", file: "src/cart/total.ts", workspaceFolder: "/home/ana/shop" };

  it("resolves the editor and workspace variables", () => {
    const body = "Explain ${selection} (also ${selectedText}) from ${file}: ${fileBasename}, ${fileBasenameNoExtension}, ${fileDirname}, in ${workspaceFolder} (${workspaceFolderBasename}).";
    assert.equal(resolveVariables(body, facts, {}), "Explain const total = 1; (also const total = 1;) from src/cart/total.ts: total.ts, total, src/cart, in /home/ana/shop (shop).");
  });

  it("resolves inputs by name, with or without a placeholder; unknown variables stay as written", () => {
    const body = "Create ${input:component:the component's name} in ${input:folder}; again ${input:component}. ${env:HOME} ${unknown}";
    assert.equal(resolveVariables(body, facts, { component: "Cart", folder: "src/ui" }), "Create Cart in src/ui; again Cart. ${env:HOME} ${unknown}");
  });

  it("lists each input once, with the first placeholder given", () => {
    assert.deepEqual(inputVariables("${input:name} ${input:kind:class or function} ${input:name:Its name} ${selection}"), [
      { name: "name", placeholder: "Its name" },
      { name: "kind", placeholder: "class or function" },
    ]);
  });

  it("takes name=value words for declared inputs out of the argument; the rest stays", () => {
    const inputs = [{ name: "formName" }, { name: "fields" }];
    assert.deepEqual(inputsFromArgument('formName=Signup fields="email, password" and keep it short x=1', inputs), {
      values: { formName: "Signup", fields: "email, password" },
      rest: "and keep it short x=1",
    });
  });

  it("a file outside the workspace on Windows, and a name that starts with a dot, give their parts as path.parse does", () => {
    const parts = "${fileBasename} | ${fileBasenameNoExtension} | ${fileDirname}";
    assert.equal(resolveVariables(parts, { selection: "", file: "C:\\tmp\\other\\notes.txt" }, {}), "notes.txt | notes | C:\\tmp\\other");
    assert.equal(resolveVariables(parts, { selection: "", file: ".eslintrc" }, {}), ".eslintrc | .eslintrc | ");
    assert.equal(resolveVariables(parts, { selection: "", file: "config/.env.local" }, {}), ".env.local | .env | config");
  });

  it("with nothing selected and no editor, the editor variables are empty", () => {
    assert.equal(resolveVariables("[${selection}] [${file}] [${fileBasename}]", { selection: "" }, {}), "[] [] []");
  });

  it("adds the argument after the body", () => {
    assert.equal(promptMessage("Review this.\n", "focus on errors"), "Review this.\n\nfocus on errors");
    assert.equal(promptMessage("Review this.", "  "), "Review this.");
    assert.equal(promptMessage("", "only the argument"), "only the argument");
  });

  it("finds Markdown links to files, not to the web, anchors, mail or images", () => {
    const body = "Follow [the guide](../docs/style%20guide.md) and [api](src/api.ts#L10 \"API\"), see ![img](media/x.png), [web](https://example.com), [top](#top), [me](mailto:a@b.c), [guide again](../docs/style%20guide.md).";
    assert.deepEqual(linkedFiles(body), ["../docs/style guide.md", "src/api.ts"]);
  });

  it("attaches what VS Code attaches: #file: references and link targets with spaces or in <…>", () => {
    const body = "Read #file:src/cart.ts and [guide](../../docs/My Guide.md), [spec](<../spec/the spec.md> \"Spec\"), then #file:../tests/cart.test.ts.\nNot #file: alone, not a#file:x.ts, not ![logo](../media/logo.png).";
    assert.deepEqual(linkedFiles(body), ["src/cart.ts", "../../docs/My Guide.md", "../spec/the spec.md", "../tests/cart.test.ts"]);
  });
});
