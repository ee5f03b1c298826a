// What a client saw of one streamed chat answer through the real openai SDK: the request id the
// server gave it (x-wisp-request-id), the replica HAProxy says answered (x-served-by), the text,
// the usage chunk, and how it ended.
import type OpenAI from "openai";
import { MODEL } from "./team";

export interface StreamRecord {
  key: string;
  /** Date.now() when it was sent, when its first text came, and when it ended. */
  started: number;
  firstText?: number;
  ended?: number;
  id?: string;
  servedBy?: string;
  text: string;
  usage?: { prompt_tokens: number; completion_tokens: number };
  finish?: string | null;
  /** completed: the whole stream with its usage; failed: an error (status and code, or message). */
  outcome: "pending" | "completed" | "failed";
  status?: number;
  error?: string;
}

/** Streams one answer; never throws (a failure is in the record). `onStart` runs once its first text arrived. */
export async function streamChat(client: OpenAI, key: string, onStart?: () => void, model = MODEL): Promise<StreamRecord> {
  const record: StreamRecord = { key, started: Date.now(), text: "", outcome: "pending" };
  try {
    const { data, response } = await client.chat.completions
      .create({ model, messages: [{ role: "user", content: "hi" }], stream: true, stream_options: { include_usage: true } })
      .withResponse();
    record.id = response.headers.get("x-wisp-request-id") ?? undefined;
    record.servedBy = response.headers.get("x-served-by") ?? undefined;
    record.status = response.status;
    for await (const chunk of data) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) {
        if (record.firstText === undefined) {
          record.firstText = Date.now();
          onStart?.();
        }
        record.text += choice.delta.content;
      }
      if (choice?.finish_reason) record.finish = choice.finish_reason;
      if (chunk.usage) record.usage = chunk.usage;
    }
    record.outcome = record.usage && record.finish === "stop" ? "completed" : "failed";
    if (record.outcome === "failed") record.error = "the stream ended without its finish and usage";
  } catch (error) {
    const e = error as { status?: number; code?: string; message?: string };
    record.outcome = "failed";
    record.status ??= e.status;
    // The SDK's connection errors wrap fetch's, which wraps the socket's: name them all.
    const causes: string[] = [];
    for (let c = (error as { cause?: unknown }).cause; c; c = (c as { cause?: unknown }).cause) causes.push(`${(c as Error).message}${(c as { code?: string }).code ? ` ${(c as { code?: string }).code}` : ""}`);
    // A balancer's error page is HTML: its text alone, on one line.
    const message = (e.message ?? "").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
    record.error = e.status ? `${e.status} ${e.code ?? ""} ${message}`.replace(/\s+/g, " ").trim() : `${message || String(error)}${causes.length ? ` (${causes.join(": ")})` : ""}`;
  }
  record.ended = Date.now();
  return record;
}
