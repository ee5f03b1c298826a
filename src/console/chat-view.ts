// Playground, chat: a model, system prompt, parameters and a conversation; Send streams the
// answer in with its token usage; View code shows the same request as code.
import { SseParser } from "../core/api/sse";
import { answerFromResponse, applyStreamEvent, emptyAnswer, type ChatAnswer } from "../core/playground/chat-answer";
import { buildChatRequest, emptyChatParameters, type ChatParameterFields, type ChatSetup, type ChatTurn, type ResponseMode } from "../core/playground/chat-request";
import { describeCall, unansweredCall, type ToolCall, type ToolChoiceField } from "../core/playground/chat-tools";
import type { FieldError } from "../core/playground/form-values";
import { CodeView } from "./code-view";
import { ConsoleApi, type ModelInfo } from "./console-api";
import { field, h, option, refocus } from "./dom";

const parameterLabels: [keyof ChatParameterFields, string, string][] = [
  ["temperature", "Temperature", "0-2"],
  ["top_p", "Top p", "0-1"],
  ["top_k", "Top k", "whole number"],
  ["max_tokens", "Max tokens", "whole number"],
  ["presence_penalty", "Presence penalty", "-2 to 2"],
  ["frequency_penalty", "Frequency penalty", "-2 to 2"],
  ["seed", "Seed", "whole number"],
];

const exampleToolSchema = JSON.stringify({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }, null, 2);

const exampleSchema = JSON.stringify({ type: "object", properties: { answer: { type: "string" } }, required: ["answer"] }, null, 2);

export class ChatView {
  readonly element: HTMLElement;
  private turns: ChatTurn[] = [];
  private lastSent: Record<string, unknown> | undefined;
  private running: AbortController | undefined;
  /** Counts Clears: an answer sent before the last Clear is not added to the cleared conversation. */
  private clears = 0;

  private readonly model = h("select", { attrs: { name: "model" } });
  private readonly system = h("textarea", { attrs: { rows: 3, name: "system", dir: "auto" } });
  private readonly params = new Map<keyof ChatParameterFields, HTMLInputElement | HTMLTextAreaElement>();
  private readonly mode = h("select", { attrs: { name: "response_format" } }, option("text", "Text"), option("json_object", "JSON object"), option("json_schema", "JSON schema"));
  private readonly schema = h("textarea", { class: "mono", attrs: { rows: 6, name: "json_schema", spellcheck: "false" } });
  private readonly schemaField: HTMLElement;
  private readonly stream = h("input", { attrs: { type: "checkbox", name: "stream", checked: true } });
  private readonly toolName = h("input", { attrs: { type: "text", name: "tool_name", placeholder: "none", spellcheck: "false" } });
  private readonly toolDescription = h("input", { attrs: { type: "text", name: "tool_description" } });
  private readonly toolSchema = h("textarea", { class: "mono", attrs: { rows: 5, name: "tool_parameters", spellcheck: "false" } });
  private readonly toolChoice = h(
    "select",
    { attrs: { name: "tool_choice" } },
    option("auto", "Model decides (auto)"),
    option("required", "Always call (required)"),
    option("named", "Always call this tool"),
    option("none", "Never call (none)"),
  );
  private readonly messages = h("ol", { class: "messages", attrs: { "aria-label": "Conversation", "aria-live": "polite" } });
  private readonly draft = h("textarea", { attrs: { rows: 3, name: "message", dir: "auto", placeholder: "Message (Ctrl+Enter sends)" } });
  private readonly draftRole = h("select", { attrs: { name: "role", "aria-label": "Role of an added message" } }, option("user", "user"), option("assistant", "assistant"), option("tool", "tool result"));
  private readonly sendButton = h("button", { text: "Send", attrs: { type: "submit" } });
  private readonly stopButton = h("button", { class: "secondary", text: "Stop", attrs: { type: "button", hidden: true } });
  private readonly status = h("p", { class: "status", attrs: { role: "status" } });
  private readonly errors = h("ul", { class: "errors", attrs: { role: "alert" } });
  private readonly codeView: CodeView;
  private readonly codeToggle = h("button", { class: "secondary", text: "View code", attrs: { type: "button", "aria-expanded": "false" } });

  constructor(private readonly api: ConsoleApi) {
    this.system.value = "You are a helpful assistant.";
    this.schema.value = exampleSchema;
    this.toolSchema.value = exampleToolSchema;
    const defaults = emptyChatParameters();
    defaults.max_tokens = "64";
    const grid = h("div", { class: "grid" });
    for (const [name, label, hint] of parameterLabels) {
      const input = h("input", { attrs: { type: "text", name, inputmode: name === "seed" || name === "top_k" || name === "max_tokens" ? "numeric" : "decimal", placeholder: "default" } });
      input.value = defaults[name];
      this.params.set(name, input);
      grid.append(field(label, input, hint));
    }
    const stop = h("textarea", { attrs: { rows: 2, name: "stop", placeholder: "one per line; \\n is a newline" } });
    this.params.set("stop", stop);
    this.schemaField = field("JSON schema", this.schema);
    this.schemaField.hidden = true;
    this.mode.addEventListener("change", () => (this.schemaField.hidden = this.mode.value !== "json_schema"));

    const setup = h(
      "form",
      { class: "panel setup", attrs: { "aria-label": "Chat setup" }, on: { submit: (e) => e.preventDefault() } },
      h("h2", { text: "Setup" }),
      field("Model", this.model),
      field("System prompt", this.system),
      grid,
      field("Stop sequences", stop),
      field("Response format", this.mode),
      this.schemaField,
      h(
        "fieldset",
        { class: "tool", attrs: { "aria-label": "Tool" } },
        h("legend", { text: "Tool the model may call" }),
        field("Name", this.toolName, "empty: no tool"),
        field("Description", this.toolDescription),
        field("Arguments (JSON schema)", this.toolSchema),
        field("Tool choice", this.toolChoice),
      ),
      h("label", { class: "check" }, this.stream, " Stream the answer"),
    );

    this.codeView = new CodeView(api.baseUrl, { current: () => this.currentRequest() });
    this.codeView.element.hidden = true;
    this.codeToggle.addEventListener("click", () => {
      const open = this.codeView.element.hidden;
      this.codeView.element.hidden = !open;
      this.codeToggle.setAttribute("aria-expanded", String(open));
      this.codeToggle.textContent = open ? "Hide code" : "View code";
      this.codeView.refresh();
    });
    const composer = h(
      "form",
      { class: "composer", on: { submit: (e) => (e.preventDefault(), void this.send()) } },
      this.draft,
      h(
        "div",
        { class: "row" },
        this.sendButton,
        this.stopButton,
        h("span", { class: "spacer" }),
        this.draftRole,
        h("button", { class: "secondary", text: "Add", attrs: { type: "button", title: "Add the message without sending" }, on: { click: () => this.add() } }),
        h("button", { class: "secondary", text: "Clear", attrs: { type: "button" }, on: { click: () => this.clear() } }),
        this.codeToggle,
      ),
    );
    this.draft.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        void this.send();
      }
    });
    this.stopButton.addEventListener("click", () => this.running?.abort());
    const conversation = h("section", { class: "panel conversation", attrs: { "aria-label": "Chat" } }, h("h2", { text: "Conversation" }), this.messages, composer, this.errors, this.status, this.codeView.element);
    this.element = h("div", { class: "playground" }, setup, conversation);
    // The code follows every change of the setup or the draft.
    this.element.addEventListener("input", () => this.codeView.refresh());
    this.element.addEventListener("change", () => this.codeView.refresh());
  }

  setModels(models: readonly ModelInfo[]): void {
    const previous = this.model.value;
    this.model.replaceChildren(...models.filter((m) => m.kind !== "image").map((m) => option(m.id)));
    if (models.some((m) => m.id === previous)) this.model.value = previous;
    this.codeView.refresh();
  }

  private setup(): ChatSetup {
    const params = emptyChatParameters();
    for (const [name, input] of this.params) params[name] = input.value;
    const tool = { name: this.toolName.value, description: this.toolDescription.value, parameters: this.toolSchema.value, choice: this.toolChoice.value as ToolChoiceField };
    return { model: this.model.value, system: this.system.value, params, responseMode: this.mode.value as ResponseMode, jsonSchema: this.schema.value, stream: this.stream.checked, tool };
  }

  /** The request Send would make now, else the last one sent. */
  private currentRequest() {
    const draft = this.draft.value;
    if (draft.trim() === "" && this.lastSent) return { request: { endpoint: "chat.completions" as const, body: this.lastSent }, caption: "The request last sent:" };
    const turns = draft.trim() === "" ? this.turns : [...this.turns, { role: "user" as const, content: draft }];
    const built = buildChatRequest(this.setup(), turns);
    if (!built.ok) return { problem: built.errors.map((e) => e.message).join("; ") };
    return { request: { endpoint: "chat.completions" as const, body: built.body }, caption: "The request Send makes:" };
  }

  private showErrors(errors: readonly FieldError[]): void {
    this.errors.replaceChildren(...errors.map((e) => h("li", { text: e.message })));
  }

  private add(): void {
    if (this.draft.value.trim() === "") return;
    const role = this.draftRole.value as ChatTurn["role"];
    if (role === "tool") {
      // A tool result answers the first call still open.
      const call = unansweredCall(this.turns);
      if (!call) return this.showErrors([{ field: "role", message: "there is no tool call to answer: a tool result follows a call the model made" }]);
      this.turns.push({ role, content: this.draft.value, toolCallId: call.id });
    } else {
      this.turns.push({ role, content: this.draft.value });
    }
    this.showErrors([]);
    this.draft.value = "";
    this.lastSent = undefined;
    this.render();
  }

  private clear(): void {
    this.clears++;
    this.running?.abort();
    this.turns = [];
    this.lastSent = undefined;
    this.status.textContent = "";
    this.showErrors([]);
    this.render();
  }

  private render(live?: ChatAnswer): void {
    const items = this.turns.map((turn, index) =>
      h(
        "li",
        { class: `message ${turn.role}` },
        h("span", { class: "role", text: turn.role === "tool" ? "tool result" : turn.role }),
        h("div", { class: "content", attrs: { dir: "auto" } }, turn.content, ...callItems(turn.toolCalls)),
        h("button", { class: "icon", text: "×", attrs: { type: "button", title: "Remove this message", "aria-label": `Remove message ${index + 1}` }, on: { click: () => this.remove(index) } }),
      ),
    );
    if (live) items.push(h("li", { class: "message assistant streaming", attrs: { "aria-busy": "true" } }, h("span", { class: "role", text: "assistant" }), h("div", { class: "content", attrs: { dir: "auto" } }, live.content, ...callItems(live.toolCalls))));
    this.messages.replaceChildren(...items);
    this.codeView.refresh();
  }

  private remove(index: number): void {
    this.turns.splice(index, 1);
    this.lastSent = undefined;
    this.render();
  }

  private async send(): Promise<void> {
    if (this.running) return;
    const draft = this.draft.value;
    const turns = draft.trim() === "" ? this.turns : [...this.turns, { role: "user" as const, content: draft }];
    const built = buildChatRequest(this.setup(), turns);
    if (!built.ok) return this.showErrors(built.errors);
    this.showErrors([]);
    this.turns = turns;
    this.draft.value = "";
    this.lastSent = built.body;
    const controller = new AbortController();
    this.running = controller;
    const clears = this.clears;
    this.sendButton.disabled = true;
    this.stopButton.hidden = false;
    this.status.textContent = "waiting for the model…";
    let answer = emptyAnswer;
    this.render(answer);
    try {
      const response = await this.api.v1("POST", "/chat/completions", built.body, controller.signal);
      if (!response.ok) throw await ConsoleApi.failure(response);
      if (built.body.stream === true && response.body) {
        const parser = new SseParser();
        const reader = response.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          const events = done ? parser.end() : parser.feed(value);
          for (const event of events) answer = applyStreamEvent(answer, event.data);
          this.render(answer);
          this.status.textContent = "streaming…";
          if (done) break;
        }
      } else {
        answer = answerFromResponse(await response.json());
      }
      this.finish(answer, answer.error, false, clears !== this.clears);
    } catch (error) {
      const stopped = controller.signal.aborted;
      this.finish(answer, stopped ? undefined : (error as Error).message, stopped, clears !== this.clears);
    }
  }

  /** `cleared`: Clear was pressed while it ran; the conversation, status and errors stay cleared. */
  private finish(answer: ChatAnswer, error: string | undefined, stopped: boolean, cleared: boolean): void {
    this.running = undefined;
    this.sendButton.disabled = false;
    this.stopButton.hidden = true;
    refocus(this.draft);
    if (cleared) return this.render();
    if (answer.content !== "" || answer.toolCalls?.length) this.turns.push({ role: "assistant", content: answer.content, toolCalls: answer.toolCalls });
    this.render();
    const parts: string[] = [];
    if (answer.usage) parts.push(`prompt ${answer.usage.prompt_tokens} · completion ${answer.usage.completion_tokens} · total ${answer.usage.total_tokens} tokens`);
    if (answer.finishReason) parts.push(`finish: ${answer.finishReason}`);
    if (stopped) parts.push("stopped");
    this.status.textContent = parts.join(" · ");
    this.showErrors(error ? [{ field: "request", message: error }] : []);
  }
}

/** The calls a message made, one line each: the tool's name and the arguments the model chose. */
function callItems(calls: readonly ToolCall[] | undefined): HTMLElement[] {
  return (calls ?? []).map((call) => h("div", { class: "tool-call mono", text: describeCall(call), attrs: { title: `tool call ${call.id}` } }));
}
