// The connection test behind Connect a Server: lists the models, then asks one chat model for one
// token and one model to fill in the middle for one token, so that what fails is named plainly.
import type { ModelInfo } from "../../core/api/models";
import { chatModels } from "../../core/chat/chat-models";
import { connectionReport, type ConnectionReport, type ProbeFailure } from "../../core/onboarding/connection-report";
import { WispClient } from "../../client/wisp-client";
import { WispError } from "../../client/wisp-error";

/** A model may load on its first request: long enough for that, short enough to be told. */
const probeTimeoutMs = 60_000;

export interface ConnectionTarget {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  /** The models the settings name (used where the server lists them). */
  readonly chatModel: string;
  readonly completionModel: string;
}

export async function testConnection(target: ConnectionTarget, signal?: AbortSignal): Promise<ConnectionReport> {
  const { baseUrl } = target;
  const client = new WispClient({ baseUrl, apiKey: target.apiKey, timeoutMs: probeTimeoutMs });
  let listed: ModelInfo[];
  try {
    listed = await client.listModels(signal);
  } catch (error) {
    return connectionReport({ baseUrl, models: { failed: failure(error) } });
  }
  const chatModel = listed.some((m) => m.id === target.chatModel) ? target.chatModel : chatModels(listed)[0]?.id;
  const chat = chatModel === undefined ? undefined : { model: chatModel, failed: await attempt(client.streamChat({ model: chatModel, messages: [{ role: "user", content: "Say OK." }], max_tokens: 1, temperature: 0 }, signal)) };
  const text = listed.filter((m) => (m.kind ?? "text") === "text");
  const fimModel = text.some((m) => m.id === target.completionModel) ? target.completionModel : (text.find((m) => m.fim) ?? text[0])?.id;
  const fim = fimModel === undefined ? undefined : { model: fimModel, failed: await attempt(client.streamCompletion({ model: fimModel, prompt: "def add(a, b):\n    return ", suffix: "\n\nprint(add(1, 2))\n", max_tokens: 1, temperature: 0 }, signal)) };
  return connectionReport({ baseUrl, models: { listed }, ...(chat ? { chat } : {}), ...(fim ? { fim } : {}) });
}

/** Reads the stream to its end; the failure, if any. */
async function attempt(stream: AsyncIterable<unknown>): Promise<ProbeFailure | undefined> {
  try {
    for await (const _ of stream) {
      // One token asked for: nothing to keep.
    }
    return undefined;
  } catch (error) {
    return failure(error);
  }
}

function failure(error: unknown): ProbeFailure {
  if (error instanceof WispError) return { kind: error.kind, message: error.message, ...(error.status !== undefined ? { status: error.status } : {}) };
  return { kind: "error", message: (error as Error).message };
}
