/**
 * Reassembles streamed tool calls: the first piece of a call names it (index, id, name), later
 * pieces carry more of its arguments text. Servers differ in how they split them (one piece or one
 * per token, the id repeated or not), so only the index links the pieces.
 */
import type { ToolCall, ToolCallDelta } from "../api/chat";

export class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();

  add(pieces: readonly ToolCallDelta[]): void {
    for (const piece of pieces) {
      const call = this.calls.get(piece.index) ?? { id: "", name: "", arguments: "" };
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.name += call.name === piece.function.name ? "" : piece.function.name;
      if (piece.function?.arguments) call.arguments += piece.function.arguments;
      this.calls.set(piece.index, call);
    }
  }

  /** The calls in index order; a call without an id gets one (some servers send none). */
  toolCalls(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ id: call.id || `call_${index}`, type: "function" as const, function: { name: call.name, arguments: call.arguments } }));
  }
}
