import assert from "node:assert/strict";
import { buildPrompt, defaultBudget } from "../../../src/core/completion/context";
import { fillTemplate, selectTemplate, templateIds, UnknownTemplateError } from "../../../src/core/completion/templates";
import { inputAt } from "./input-at";

describe("FIM templates", () => {
  // Model ids as servers list them: hub repositories, Ollama tags, GGUF file names (Wisp's local
  // server lists the file name without .gguf), LM Studio and hub-hosted GGUF repositories.
  const auto: Array<[string, string]> = [
    ["Qwen/Qwen2.5-Coder-7B-Instruct", "qwen"],
    ["Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF", "qwen"],
    ["Qwen/Qwen2.5-Coder-32B", "qwen"],
    ["qwen2.5-coder:1.5b", "qwen"],
    ["qwen2.5-coder:7b-base-q4_K_M", "qwen"],
    ["qwen2.5-coder-1.5b-instruct-q8_0.gguf", "qwen"],
    ["lmstudio-community/Qwen2.5-Coder-7B-Instruct-GGUF", "qwen"],
    ["hf.co/bartowski/Qwen2.5-Coder-7B-Instruct-GGUF:Q4_K_M", "qwen"],
    ["Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen"],
    ["deepseek-coder-6.7b-base.Q4_K_M.gguf", "deepseek"],
    ["deepseek-ai/deepseek-coder-1.3b-base", "deepseek"],
    ["deepseek-coder:6.7b", "deepseek"],
    ["TheBloke/deepseek-coder-6.7B-instruct-GGUF", "deepseek"],
    ["deepseek-ai/DeepSeek-Coder-V2-Lite-Base", "deepseek"],
    ["deepseek-coder-v2:16b", "deepseek"],
    ["bigcode/starcoder2-15b", "starcoder"],
    ["bigcode/starcoderbase-1b", "starcoder"],
    ["starcoder2:3b", "starcoder"],
    ["starcoder2-3b-Q4_K_M", "starcoder"],
    ["codellama/CodeLlama-7b-hf", "codellama"],
    ["codellama/CodeLlama-13b-Instruct-hf", "codellama"],
    ["codellama:7b-code", "codellama"],
    ["TheBloke/CodeLlama-7B-GGUF", "codellama"],
    ["codellama-7b.Q4_K_M.gguf", "codellama"],
    ["mistralai/Codestral-22B-v0.1", "codestral"],
    ["codestral:22b", "codestral"],
    ["codestral-latest", "codestral"],
    ["google/codegemma-2b", "codegemma"],
    ["codegemma:7b-code", "codegemma"],
    ["codegemma-1.1-2b.Q4_K_M.gguf", "codegemma"],
    ["ibm-granite/granite-3b-code-base-2k", "granite"],
    ["granite-code:8b", "granite"],
    ["stabilityai/stable-code-3b", "stable-code"],
    ["stable-code:3b", "stable-code"],
    // No FIM family in the id: the server applies whatever the model has.
    ["wisp-tiny", "server"],
    ["Qwen/Qwen2.5-7B-Instruct", "server"],
    ["qwen2.5:7b", "server"],
    ["meta-llama/Llama-3.1-8B-Instruct", "server"],
    ["llama3.2:3b", "server"],
    ["google/gemma-2-2b-it", "server"],
    ["deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "server"],
    ["gpt-4o-mini", "server"],
  ];
  for (const [model, family] of auto) {
    it(`auto picks ${family} for ${model}`, () => assert.equal(selectTemplate("auto", model).id, family));
  }

  it("auto prefers server where the server applies the model's own FIM tokens", () => {
    for (const [model] of auto) assert.equal(selectTemplate("auto", model, true).id, "server", model);
    assert.equal(selectTemplate("qwen", "qwen2.5-coder-1.5b-instruct-q8_0", true).id, "qwen", "a family chosen by name still wins");
  });

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
