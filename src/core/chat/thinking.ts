/**
 * Reasoning models served without a reasoning parser (DeepSeek-R1 and QwQ distills on Ollama,
 * LM Studio, llama.cpp's server with --reasoning-format none) send their thinking inside the
 * answer's text, in a leading <think>…</think> block. It is no part of the answer: the panel
 * folds it away, Copy and the next request leave it out (as reasoning_content is left out).
 * Everything that reads a model's answer (chat, commit messages, edits, review) reads it so.
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

/**
 * gpt-oss writes in harmony channels; a server that does not parse them (llama.cpp's server or vLLM
 * of before gpt-oss, a gateway) passes the tokens on: the analysis channel is its thinking, the
 * final channel the answer.
 */
const harmonyStart = /^\s*(?:<\|start\|>assistant)?<\|channel\|>(analysis|final)<\|message\|>/;
const harmonyFinal = /(?:<\|start\|>assistant)?<\|channel\|>final<\|message\|>/;
const harmonyEnd = /<\|(?:return|end|call)\|>\s*$/;

function splitHarmony(text: string, start: RegExpExecArray): SplitAnswer {
  const rest = text.slice(start[0].length);
  if (start[1] === "final") return { thinkingOpen: false, answer: rest.replace(harmonyEnd, "") };
  const final = harmonyFinal.exec(rest);
  const analysis = (final ? rest.slice(0, final.index) : rest).replace(/<\|end\|>\s*(?:<\|start\|>(?:assistant)?)?\s*$/, "").trim();
  if (!final) return { thinking: analysis, thinkingOpen: true, answer: "" };
  return { thinking: analysis, thinkingOpen: false, answer: rest.slice(final.index + final[0].length).replace(/^\s+/, "").replace(harmonyEnd, "") };
}

export function splitThinking(text: string): SplitAnswer {
  const harmony = harmonyStart.exec(text);
  if (harmony) return splitHarmony(text, harmony);
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

/**
 * Writes the thinking a server sends apart (reasoning_content) into the answer's text as a leading
 * think block, so that the panel folds it as it does one written inline ("Thinking…" while it
 * comes, instead of a wait with nothing shown), and Copy and the next requests leave it out.
 * Thinking that comes after the answer began is dropped: the answer stays whole.
 */
export class ReasoningFold {
  private state: "before" | "thinking" | "answer" = "before";

  /** The text to append for a delta's thinking and answer pieces. */
  next(reasoning: string, content: string): string {
    let text = "";
    if (reasoning !== "" && this.state !== "answer") {
      text += this.state === "before" ? `<think>\n${reasoning}` : reasoning;
      this.state = "thinking";
    }
    if (content !== "") {
      if (this.state === "thinking") text += `\n${closing}\n\n`;
      this.state = "answer";
      text += content;
    }
    return text;
  }

  /** What closes a think block the stream left open (the answer never came). */
  end(): string {
    if (this.state !== "thinking") return "";
    this.state = "answer";
    return `\n${closing}`;
  }
}
