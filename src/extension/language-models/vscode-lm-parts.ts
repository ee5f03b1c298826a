import * as vscode from "vscode";
import type { LmMessage, LmPart } from "../../core/language-models/lm-request";
import type { LmResponsePart } from "../../core/language-models/lm-response";

/** The System role of VS Code's proposed API: the editor's own chat sends its instructions with it. */
const systemRole = 3;

export function fromVscodeMessage(message: vscode.LanguageModelChatRequestMessage): LmMessage {
  const role = message.role === vscode.LanguageModelChatMessageRole.Assistant ? "assistant" : (message.role as number) === systemRole ? "system" : "user";
  return { role, parts: message.content.flatMap(fromVscodePart) };
}

export function toVscodePart(part: LmResponsePart): vscode.LanguageModelResponsePart {
  return part.kind === "text" ? new vscode.LanguageModelTextPart(part.text) : new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
}

/** Images are not sent (the models say imageInput: false); thinking parts and cache markers carry nothing for the server. */
function fromVscodePart(part: unknown): LmPart[] {
  if (part instanceof vscode.LanguageModelToolCallPart) return [{ kind: "toolCall", callId: part.callId, name: part.name, input: part.input }];
  if (part instanceof vscode.LanguageModelToolResultPart) return [{ kind: "toolResult", callId: part.callId, text: part.content.map(partText).join("") }];
  const text = partText(part);
  return text === "" ? [] : [{ kind: "text", text }];
}

function partText(part: unknown): string {
  if (part instanceof vscode.LanguageModelTextPart) return part.value;
  if (part instanceof vscode.LanguageModelPromptTsxPart) return JSON.stringify(part.value);
  if (part instanceof vscode.LanguageModelDataPart && /^text\/|json/.test(part.mimeType)) return new TextDecoder().decode(part.data);
  return "";
}
