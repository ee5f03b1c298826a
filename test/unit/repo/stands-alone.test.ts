import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createOpenApiValidator, openApiSpecPath } from "../../helpers/openapi";

const root = join(import.meta.dirname, "..", "..", "..");

describe("the repository stands on its own", () => {
  it("validates against OpenAI's OpenAPI description kept inside the repository", () => {
    assert.ok(openApiSpecPath.startsWith(root), openApiSpecPath);
    const openapi = createOpenApiValidator();
    const models = { object: "list", data: [{ id: "wisp-tiny", object: "model", created: 1, owned_by: "wisp" }] };
    assert.deepEqual(openapi.errors("ListModelsResponse", models), []);
    const broken = openapi.errors("ListModelsResponse", { object: "list", data: [{ id: 7 }] });
    assert.ok(broken.some((line) => line.startsWith("/data/0")), broken.join("\n"));
    assert.ok(readFileSync(join(root, "test/fixtures/openapi/LICENSE-openai-openapi"), "utf8").includes("MIT License"));
  });

  it("names the missing file when the description is not there, inside the test that needs it", () => {
    const missing = join(root, "test/fixtures/openapi/no-such-file.json");
    const openapi = createOpenApiValidator(missing); // loading the helper must not throw
    assert.throws(() => openapi.errors("ListModelsResponse", {}), (e: Error) => e.message.includes(missing));
  });

  it("reaches no path above the repository root in tracked code", () => {
    const files = execFileSync("git", ["ls-files", "src", "test", "scripts", "bench", "bin", ".ci", "package.json"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((f) => /\.(ts|mts|mjs|js|cjs|sh|json)$/.test(f) || f === ".ci/run")
      // Other projects' code kept as evaluation data: its own relative imports are not ours.
      .filter((f) => !f.startsWith("bench/fim-quality/third_party/"));
    assert.ok(files.length > 100, `only ${files.length} files listed`);
    // The folder that sat beside the repository during development; a user's clone has none.
    const outside = files.filter((f) => f !== "test/unit/repo/stands-alone.test.ts" && /\.\.\/shared\b/.test(readFileSync(join(root, f), "utf8")));
    assert.deepEqual(outside, []);
  });
});
