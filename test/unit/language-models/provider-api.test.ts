import * as assert from "node:assert/strict";
import { hasLanguageModelProviderApi } from "../../../src/extension/language-models/provider-api";

describe("the editor's language-model provider API", () => {
  class LanguageModelDataPart {}
  const registerLanguageModelChatProvider = () => ({ dispose() {} });

  it("is there where the editor has the provider registration and the data part (VS Code 1.106 on)", () => {
    assert.equal(hasLanguageModelProviderApi({ lm: { registerLanguageModelChatProvider, selectChatModels() {} }, LanguageModelDataPart }), true);
  });

  it("is missing in older editors: vscode.lm without the provider (1.93 to 1.103), or without the data part (1.104, 1.105)", () => {
    assert.equal(hasLanguageModelProviderApi({ lm: { selectChatModels() {} } }), false);
    assert.equal(hasLanguageModelProviderApi({ lm: { registerLanguageModelChatProvider } }), false);
    assert.equal(hasLanguageModelProviderApi({}), false, "no vscode.lm at all");
  });
});
