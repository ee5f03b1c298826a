/**
 * Whether the chat model can carry out an agent task, checked before the first request: the agent
 * sends its instructions and tool definitions (about 3,000 tokens) with every step, and needs a
 * model that answers with tool calls. The embedded models can do neither.
 */
import { isEmbeddedModel } from "./embedded-models";

export const agentMinContextTokens = 8192;

export interface AgentModelFacts {
  readonly model: string;
  readonly contextTokens: number;
  /** Where contextTokens comes from: the server's listing, wisp.chat.contextTokens, or an assumption. */
  readonly contextSource: "server" | "setting" | "default";
}

/** Why the agent will not start with this model, or undefined when it may try. */
export function agentModelRefusal(facts: AgentModelFacts): string | undefined {
  const { model, contextTokens, contextSource } = facts;
  if (isEmbeddedModel(model)) {
    return `The agent cannot work with ${model}, one of the tiny embedded models: it needs a chat model that calls tools, with a context of 8k tokens or more.`;
  }
  // An assumed window says nothing about the model: let it try.
  if (contextSource === "default" || contextTokens >= agentMinContextTokens) return undefined;
  const from = contextSource === "setting" ? "wisp.chat.contextTokens says" : "the server says";
  return `The agent needs a context of 8k tokens or more (its instructions and tools alone take about 3k); ${model} has ${contextTokens.toLocaleString("en-US")} (${from}). Choose a model with a larger context.`;
}
