import type { CodeAttachment } from "../../core/chat/conversation";
import type { AgentOption, ChatMode, MentionItem, ViewMessage } from "../../core/chat/protocol";
import type { SlashCommandItem } from "../../core/customization/slash-commands";
import { describeAttachment } from "../../core/chat/prompt";
import { actionButton, button, el } from "./dom";
import { composerKey } from "./composer-key";
import { MentionMenu } from "./mention-menu";
import { SlashMenu } from "./slash-menu";
import { cutAt } from "../../core/base/surrogates";

export interface ComposerEvents {
  send(text: string): void;
  stop(): void;
  removeAttachment(id: string): void;
  draftChanged(text: string): void;
  /** `agent`: an agent of the switch beside Agent itself (Plan, a custom agent). */
  setMode(mode: ChatMode, agent?: string): void;
}

const placeholders: Record<ChatMode, string> = {
  ask: "Ask Wisp… (@ to mention files, symbols, problems; / for commands; Enter to send)",
  agent: "Describe a task for the agent… (it reads, edits and runs commands, asking before commands; Enter to start)",
};

/** The prompt box: attachment chips, the text area (Enter sends, Shift+Enter new line), Send / Stop. */
export class Composer {
  readonly element = el("form", { className: "composer", "aria-label": "Message" });
  private readonly chips = el("ul", { className: "chips pending", "aria-label": "Code attached to the next message" });
  private readonly input = el("textarea", { rows: 3, dir: "auto", placeholder: "Ask Wisp… (@ to mention files, symbols, problems; Enter to send)", "aria-label": "Message to Wisp" });
  private readonly mentions: MentionMenu;
  private readonly slash: SlashMenu;
  private readonly sendButton = el("button", { type: "submit", className: "primary", title: "Send (Enter)" }, "Send");
  private readonly stopButton = button("Stop", { className: "stop", title: "Stop the answer (Escape)" });
  private readonly modeButtons = {
    ask: button("Ask", { className: "mode", title: "Ask: chat about your code" }),
    agent: button("Agent", { className: "mode", title: "Agent: carry out a task with tools (read, edit, run)" }),
  };
  /** Plan and the custom agents, after Ask and Agent. */
  private readonly agentButtons = el("span", { className: "agent-modes" });
  private agentsKey = "";
  private mode: ChatMode = "ask";
  private streaming = false;
  private hasAttachments = false;

  constructor(
    private readonly events: ComposerEvents,
    post: (message: ViewMessage) => void,
  ) {
    this.mentions = new MentionMenu(this.input, post);
    this.slash = new SlashMenu(this.input);
    const modes = el("div", { className: "modes", role: "group", "aria-label": "Mode" }, this.modeButtons.ask, this.modeButtons.agent, this.agentButtons);
    for (const mode of ["ask", "agent"] as const) this.modeButtons[mode].addEventListener("click", () => this.events.setMode(mode));
    this.element.append(this.chips, this.mentions.element, this.slash.element, this.input, el("div", { className: "composer-actions" }, modes, this.stopButton, this.sendButton));
    this.element.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
    this.input.addEventListener("keydown", (event) => {
      const key = composerKey(event, this.streaming);
      // While composing, Enter commits the text, Escape cancels it, arrows pick a candidate: not the menus' keys.
      if (key === "ime" || this.mentions.handleKey(event) || this.slash.handleKey(event)) return;
      if (key === "send") {
        event.preventDefault();
        this.submit();
      } else if (key === "stop") {
        event.preventDefault();
        this.events.stop();
      }
    });
    this.input.addEventListener("input", () => {
      this.events.draftChanged(this.input.value);
      this.refreshButtons();
    });
    this.stopButton.addEventListener("click", () => this.events.stop());
  }

  get draft(): string {
    return this.input.value;
  }

  setDraft(text: string): void {
    this.input.value = text;
    this.refreshButtons();
  }

  showMentions(requestId: number, items: readonly MentionItem[]): void {
    this.mentions.show(requestId, items);
  }

  focus(): void {
    this.input.focus();
  }

  /** The `/` commands and the agents of the switch, as the host lists them; `agentId` is the one chosen. */
  showCustomization(commands: readonly SlashCommandItem[], agents: readonly AgentOption[], agentId: string | undefined): void {
    this.slash.setCommands(commands);
    const key = JSON.stringify(agents);
    if (key !== this.agentsKey) {
      this.agentsKey = key;
      this.agentButtons.replaceChildren(
        ...agents.map((agent) => {
          const node = button(agent.label, { className: "mode", title: agent.description ? `${agent.label}: ${agent.description}` : agent.label, "data-agent": agent.id });
          node.addEventListener("click", () => this.events.setMode("agent", agent.id));
          return node;
        }),
      );
    }
    for (const node of this.agentButtons.querySelectorAll<HTMLButtonElement>("button")) node.setAttribute("aria-pressed", String(this.mode === "agent" && node.dataset.agent === agentId));
    this.modeButtons.agent.setAttribute("aria-pressed", String(this.mode === "agent" && agentId === undefined));
  }

  show(pending: readonly CodeAttachment[], streaming: boolean, mode: ChatMode = this.mode): void {
    this.streaming = streaming;
    this.mode = mode;
    for (const m of ["ask", "agent"] as const) this.modeButtons[m].setAttribute("aria-pressed", String(m === mode));
    this.input.placeholder = placeholders[mode];
    this.sendButton.textContent = mode === "agent" ? "Start" : "Send";
    this.hasAttachments = pending.length > 0;
    this.chips.replaceChildren(
      ...pending.map((a) =>
        el("li", { className: a.source === "found" ? "chip found" : "chip", title: cutAt(a.text, 400) }, el("span", {}, describeAttachment(a)), actionButton(`Remove ${describeAttachment(a)}`, () => this.events.removeAttachment(a.id), { className: "remove" }, "×")),
      ),
    );
    this.chips.hidden = pending.length === 0;
    this.refreshButtons();
  }

  private submit(): void {
    if (this.streaming || (this.input.value.trim() === "" && !this.hasAttachments)) return;
    this.events.send(this.input.value);
    this.setDraft("");
    this.events.draftChanged("");
  }

  private refreshButtons(): void {
    const focused = document.activeElement;
    this.stopButton.hidden = !this.streaming;
    this.sendButton.hidden = this.streaming;
    this.sendButton.disabled = this.input.value.trim() === "" && !this.hasAttachments;
    // Send and Stop take each other's place: a keyboard user who pressed one goes on typing.
    const pressed = [this.sendButton, this.stopButton].find((b) => b === focused);
    if (pressed && (pressed.hidden || pressed.disabled)) this.input.focus();
  }
}
