/**
 * Reasoning models served without a reasoning parser (DeepSeek-R1 and QwQ distills on Ollama,
 * LM Studio, llama.cpp's server with --reasoning-format none) send their thinking inside the
 * answer's text, in a leading <think>…</think> block. It is no part of the answer: the panel
 * folds it away, Copy and the next request leave it out (as reasoning_content is left out).
 */
const opening = /^\s*<think>/;
const closing = "</think>";

export interface SplitAnswer {
  /** The thinking, without its tags; undefined when the text has no leading think block. */
  readonly thinking?: string;
  /** Whether the thinking is still being written (no closing tag yet). */
  readonly thinkingOpen: boolean;
  /** The answer after the thinking. */
  readonly answer: string;
}

export function splitThinking(text: string): SplitAnswer {
  const open = opening.exec(text);
  if (!open) return { thinkingOpen: false, answer: text };
  const start = open[0].length;
  const end = text.indexOf(closing, start);
  if (end < 0) return { thinking: text.slice(start).trim(), thinkingOpen: true, answer: "" };
  return { thinking: text.slice(start, end).trim(), thinkingOpen: false, answer: text.slice(end + closing.length).replace(/^\s+/, "") };
}

/** The answer's text without a leading think block. */
export function answerText(text: string): string {
  return splitThinking(text).answer;
}
