import assert from "node:assert/strict";
import { makeErrorBody, readErrorDetail } from "../../../../src/core/api/error-body";

describe("error bodies", () => {
  it("makes the OpenAI error shape", () => {
    assert.deepEqual(makeErrorBody("bad model", "invalid_request_error", "model_not_found", "model"), {
      error: { message: "bad model", type: "invalid_request_error", param: "model", code: "model_not_found" },
    });
    assert.deepEqual(makeErrorBody("x", "server_error"), {
      error: { message: "x", type: "server_error", param: null, code: null },
    });
  });

  it("reads a full body, a bare error object, and fills what servers leave out", () => {
    const full = makeErrorBody("m", "t", "c", "p");
    assert.deepEqual(readErrorDetail(full), full.error);
    assert.deepEqual(readErrorDetail({ message: "only message" }), {
      message: "only message",
      type: "error",
      param: null,
      code: null,
    });
  });

  it("reads an error that is its message alone (Hugging Face TGI, LM Studio)", () => {
    assert.deepEqual(readErrorDetail({ error: "Input validation error", error_type: "validation" }), {
      message: "Input validation error",
      type: "error",
      param: null,
      code: null,
    });
  });

  it("is undefined when there is no message", () => {
    for (const body of [undefined, null, "text", { error: "" }, { error: { type: "x" } }, { detail: "fastapi" }]) {
      assert.equal(readErrorDetail(body), undefined, JSON.stringify(body));
    }
  });
});
