import assert from "node:assert/strict";
import { buildPrompt, defaultBudget } from "../../../src/core/completion/context";
import { fillTemplate, selectTemplate, templateIds, UnknownTemplateError } from "../../../src/core/completion/templates";
import { inputAt } from "./input-at";

describe("FIM templates", () => {
  const auto: Array<[string, string]> = [
    ["Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF", "qwen"],
    ["qwen2.5-coder:7b", "qwen"],
    ["codellama:7b-code", "codellama"],
    ["CodeLlama-13b-hf", "codellama"],
    ["deepseek-coder-6.7b-base", "deepseek"],
    ["bigcode/starcoder2-15b", "starcoder"],
    ["starcoder", "starcoder"],
    ["codestral-latest", "codestral"],
    ["codegemma:2b", "codegemma"],
    ["ibm-granite/granite-3b-code-base", "granite"],
    ["stable-code-3b", "stable-code"],
    ["wisp-tiny", "server"],
    ["qwen2.5-7b-instruct", "server"],
  ];
  for (const [model, family] of auto) {
    it(`auto picks ${family} for ${model}`, () => assert.equal(selectTemplate("auto", model).id, family));
  }

  it("covers the required families", () => {
    for (const id of ["qwen", "codellama", "deepseek", "starcoder", "codestral", "codegemma", "granite", "stable-code", "server"]) {
      assert.ok(templateIds.includes(id), id);
    }
  });

  it("a family chosen by name wins over the model id", () => {
    assert.equal(selectTemplate("starcoder", "codellama-7b").id, "starcoder");
    assert.equal(selectTemplate(" Server ", "qwen2.5-coder").id, "server");
  });

  it("an unknown name is a clear error", () => {
    assert.throws(() => selectTemplate("gpt-fim", "x"), (e: unknown) => e instanceof UnknownTemplateError && /Unknown completion template "gpt-fim"/.test(e.message));
  });

  const doc = "def f():\n    return █\n\nprint(f())";
  const prompts: Array<[string, string]> = [
    ["qwen", "<|fim_prefix|>def f():\n    return <|fim_suffix|>\n\nprint(f())<|fim_middle|>"],
    ["codellama", "<PRE> def f():\n    return  <SUF>\n\nprint(f()) <MID>"],
    ["deepseek", "<｜fim▁begin｜>def f():\n    return <｜fim▁hole｜>\n\nprint(f())<｜fim▁end｜>"],
    ["starcoder", "<fim_prefix>def f():\n    return <fim_suffix>\n\nprint(f())<fim_middle>"],
    ["codestral", "[SUFFIX]\n\nprint(f())[PREFIX]def f():\n    return "],
    ["codegemma", "<|fim_prefix|>def f():\n    return <|fim_suffix|>\n\nprint(f())<|fim_middle|>"],
  ];
  for (const [id, expected] of prompts) {
    it(`renders the ${id} prompt`, () => {
      const prompt = buildPrompt(selectTemplate(id, ""), inputAt(doc), [], defaultBudget);
      assert.equal(prompt.prompt, expected);
      assert.equal(prompt.suffix, undefined);
    });
  }

  it("server mode sends the prefix as the prompt and the suffix on its own", () => {
    const prompt = buildPrompt(selectTemplate("server", ""), inputAt(doc), [], defaultBudget);
    assert.equal(prompt.prompt, "def f():\n    return ");
    assert.equal(prompt.suffix, "\n\nprint(f())");
    assert.deepEqual(prompt.stop, []);
  });

  it("code that looks like a placeholder is not substituted", () => {
    const prompt = buildPrompt(selectTemplate("qwen", ""), inputAt('s = "{suffix}{prefix}"█'), [], defaultBudget);
    assert.equal(prompt.prompt, '<|fim_prefix|>s = "{suffix}{prefix}"<|fim_suffix|><|fim_middle|>');
    assert.equal(fillTemplate("{a}{b}", { a: "{b}" }), "{b}{b}");
  });
});
