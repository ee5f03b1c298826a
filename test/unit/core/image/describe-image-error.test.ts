import assert from "node:assert/strict";
import { describeImageError, type ImageAttempt } from "../../../../src/core/image/describe-image-error";

const attempt: ImageAttempt = {
  model: "wisp-tiny",
  size: { width: 2048, height: 512 },
  baseUrl: "http://127.0.0.1:8765/v1",
  local: true,
  timeoutSeconds: 600,
};

describe("image errors as the user reads them", () => {
  it("offers Set API Key when there is no key or it is refused", () => {
    const report = describeImageError({ kind: "no-key", message: "No API key is set." }, attempt);
    assert.deepEqual(report, { message: "No API key is set.", actions: ["Set API Key"] });
    assert.deepEqual(describeImageError({ kind: "bad-key", message: "rejected" }, attempt).actions, ["Set API Key"]);
  });

  it("says that a text model is not an image model, in the server's words, and offers Select Model", () => {
    const report = describeImageError(
      {
        kind: "bad-request",
        status: 400,
        param: "model",
        code: "wrong_model_kind",
        message: "http://127.0.0.1:8765/v1 refused the request (400): model 'wisp-tiny' is a text model: use /v1/chat/completions or /v1/completions",
      },
      attempt,
    );
    assert.equal(
      report.message,
      "\"wisp-tiny\" is not an image model on http://127.0.0.1:8765/v1 (model 'wisp-tiny' is a text model: use /v1/chat/completions or /v1/completions). Choose an image model with Wisp: Select Model.",
    );
    assert.deepEqual(report.actions, ["Select Model"]);
  });

  it("names an unknown model and offers Select Model", () => {
    const report = describeImageError({ kind: "unknown-model", message: "…" }, attempt);
    assert.match(report.message, /"wisp-tiny" is not available on http:\/\/127\.0\.0\.1:8765\/v1/);
    assert.deepEqual(report.actions, ["Select Model"]);
  });

  it("says which size was refused", () => {
    const report = describeImageError(
      { kind: "bad-request", status: 400, param: "width", message: "x refused the request (400): width must be a multiple of 8 from 64 to 1024, got 2048" },
      attempt,
    );
    assert.equal(report.message, "The server refused the size 2048×512 (width must be a multiple of 8 from 64 to 1024, got 2048). Choose another size.");
    assert.deepEqual(report.actions, ["Try Again", "Open Settings"]);
  });

  it("says how to name a size when a server wants one and the settings leave it to the model", () => {
    const failure = { kind: "bad-request", status: 400, param: "width", message: "x refused the request (400): width is required" } as const;
    const report = describeImageError(failure, { ...attempt, size: { width: 0, height: 0 } });
    assert.equal(report.message, "The server wants a size where the settings leave it to the model (width is required). Choose a size, or set wisp.image.width and wisp.image.height.");
  });

  it("says the prompt was refused and offers Try Again, not settings that hold no prompt", () => {
    const refused = (param: string, why: string) =>
      describeImageError({ kind: "bad-request", status: 400, param, code: "invalid_value", message: `http://127.0.0.1:8765/v1 refused the request (400): ${why}.` }, attempt);
    assert.deepEqual(refused("prompt", "prompt must NOT have more than 4000 characters"), {
      message: "The server refused the prompt (prompt must NOT have more than 4000 characters). Shorten or change it, and try again.",
      actions: ["Try Again"],
    });
    assert.deepEqual(refused("negative_prompt", "negative_prompt must NOT have more than 4000 characters"), {
      message: "The server refused the negative prompt (negative_prompt must NOT have more than 4000 characters). Change it in wisp.image.negativePrompt (or the Advanced… step).",
      actions: ["Open Settings", "Try Again"],
      setting: "wisp.image.negativePrompt",
    });
  });

  it("offers to start the local server only when the base URL is on this machine", () => {
    const failure = { kind: "unreachable", message: "Cannot reach http://127.0.0.1:8765/v1: the connection was refused." };
    assert.deepEqual(describeImageError(failure, attempt).actions, ["Start Local Server", "Open Settings"]);
    assert.deepEqual(describeImageError(failure, { ...attempt, local: false }).actions, ["Open Settings"]);
    assert.equal(describeImageError(failure, attempt).setting, "wisp.baseUrl");
  });

  it("explains a timeout with what to change", () => {
    const report = describeImageError({ kind: "timeout", message: "did not respond" }, { ...attempt, timeoutSeconds: 2 });
    assert.equal(
      report.message,
      "No image came back from http://127.0.0.1:8765/v1 within 2 s. Try fewer steps or a smaller size, or allow more time (wisp.image.timeoutSeconds).",
    );
  });

  it("passes other failures on with the logs at hand", () => {
    assert.deepEqual(describeImageError({ kind: "server", message: "The server failed (500): boom" }, attempt), {
      message: "The server failed (500): boom",
      actions: ["Show Logs"],
    });
  });
});
