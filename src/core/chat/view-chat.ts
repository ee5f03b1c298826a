import type { Chat } from "./conversation";

/**
 * The chat as the view draws it. An agent task's conversation with the model (every file it read,
 * in full) stays in the extension: the view shows the steps, and the whole chat is posted on every
 * step, so sending the conversation too made each step cost more as the task went on.
 */
export function viewChat(chat: Chat): Chat {
  if (!chat.turns.some((t) => t.role === "assistant" && (t.agent?.messages.length ?? 0) > 0)) return chat;
  return { ...chat, turns: chat.turns.map((t) => (t.role === "assistant" && t.agent ? { ...t, agent: { ...t.agent, messages: [] } } : t)) };
}
