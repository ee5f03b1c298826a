import OpenAI from "openai";
import { readErrorDetail } from "../core/api/error-body";

/**
 * The OpenAI SDK, reading error bodies as servers write them. The SDK keeps only a body's `error`
 * field, and vLLM (like SGLang and TensorRT-LLM) answers with the error object itself:
 * `{"object": "error", "message": "The model ... does not exist.", "code": 404}`. Its message
 * would be lost, and a 404 about the model read as a wrong base URL.
 */
export class WispSdk extends OpenAI {
  protected override makeStatusError(status: number, error: object, message: string | undefined, headers: Headers) {
    const bare = typeof error === "object" && error !== null && !("error" in error) && readErrorDetail(error) !== undefined;
    return super.makeStatusError(status, bare ? { error } : error, message, headers);
  }
}
