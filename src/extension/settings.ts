import * as vscode from "vscode";
import type { ImageExtension } from "../core/api/images";
import type { ModelRole } from "../core/api/models";

export type { ModelRole };

export interface WispSettings {
  readonly baseUrl: string;
  readonly completion: {
    readonly enabled: boolean;
    readonly model: string;
    readonly debounceMs: number;
    readonly maxTokens: number;
    readonly template: string;
    readonly disabledLanguages: readonly string[];
    /** How long a completion waits for the server's first byte, and then for each next chunk. */
    readonly timeoutSeconds: number;
  };
  readonly chat: {
    readonly model: string;
    readonly systemPrompt: string;
    readonly temperature: number;
    readonly maxTokens: number;
    /** 0: as the server reports it. */
    readonly contextTokens: number;
    /** Add relevant workspace code to questions that attach none, and offer @-mentions of files and symbols. */
    readonly workspaceContext: boolean;
    /** Compact the conversation by itself when a question would fill this share (percent) of the context; 0: never. */
    readonly autoCompact: number;
    /** A folder of the user's own prompt files, agents and instructions ("": none). */
    readonly userPromptsFolder: string;
  };
  readonly image: ImageSettings;
  readonly agent: AgentSettings;
  readonly mcp: { readonly maxTools: number; readonly timeoutSeconds: number };
  readonly localServer: { readonly autoStart: boolean; readonly modelsDir: string; readonly modelMirror: string };
  /** The server's chat models in the editor's own chat (VS Code's Language Model Chat Provider). */
  readonly languageModels: { readonly enabled: boolean };
  /** Next-edit suggestions from the local predictor. */
  /** `model`: empty, the local predictor only. */
  readonly nextEdit: { readonly enabled: boolean; readonly model: string };
  /** The team's rules for generated commit messages. */
  readonly commitMessage: { readonly instructions: string };
  /** Review Changes: the uncommitted changes, or the staged ones only. */
  readonly review: { readonly changes: "uncommitted" | "staged" };
  /** How much of a terminal command's output goes with Explain Terminal Failure and @terminal. */
  readonly terminal: { readonly outputLines: number };
}

export interface ImageSettings {
  readonly model: string;
  readonly width: number;
  readonly height: number;
  readonly steps: number;
  readonly negativePrompt: string;
  readonly format: ImageExtension;
  /** Where images are saved: relative to the workspace folder, or absolute (`~` is home). */
  readonly folder: string;
  readonly sizePresets: readonly string[];
  /** -1: a random seed each time. */
  readonly seed: number;
  readonly variations: number;
  readonly timeoutSeconds: number;
}

export interface AgentSettings {
  readonly maxSteps: number;
  /** Command prefixes or /regexes/ that run without asking (each sub-command must match). */
  readonly autoApprove: readonly string[];
  /** More commands refused at once, beside the built-in deny rules. */
  readonly denyCommands: readonly string[];
  readonly commandTimeoutSeconds: number;
  readonly maxOutputChars: number;
  /** AGENTS.md, .github/copilot-instructions.md and .wisp/rules/*.md in the system prompt. */
  readonly rules: boolean;
  /** "auto": reads run at once (sensitive files still ask); "ask": every read asks. */
  readonly approveReads: "auto" | "ask";
  /** "auto": edits apply at once, Keep/Undo at the end; "ask": each edit asks first. */
  readonly approveEdits: "auto" | "ask";
}

const imageFormats: readonly ImageExtension[] = ["png", "jpg", "webp"];

export const defaultBaseUrl = "http://127.0.0.1:8765/v1";

/** Typed, always-current view of the `wisp.*` settings. */
export class Settings implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WispSettings>();
  private readonly subscription: vscode.Disposable;
  private current: WispSettings;

  /** Fires with the new values whenever any `wisp.*` setting changes. */
  readonly onDidChange = this.changed.event;

  constructor() {
    this.current = readSettings();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration("wisp")) return;
      this.current = readSettings();
      this.changed.fire(this.current);
    });
  }

  get value(): WispSettings { return this.current; }

  async setModel(role: ModelRole, model: string): Promise<void> {
    await updateSetting(`${role}.model`, model);
  }

  async setNextEditModel(model: string): Promise<void> {
    await updateSetting("nextEdit.model", model);
  }

  async setCompletionsEnabled(enabled: boolean): Promise<void> {
    await updateSetting("completion.enabled", enabled);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/**
 * Writes a `wisp.*` setting (`undefined` removes it) where this window reads it from: the
 * workspace's settings when they set it, since they win over the user's (a user setting alone
 * would change nothing here), else the user's. Returns where it went.
 */
export async function updateSetting(key: string, value: unknown): Promise<"workspace" | "user"> {
  const config = vscode.workspace.getConfiguration("wisp");
  const inWorkspace = config.inspect(key)?.workspaceValue !== undefined;
  await config.update(key, value, inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  return inWorkspace ? "workspace" : "user";
}

function readSettings(): WispSettings {
  const c = vscode.workspace.getConfiguration("wisp");
  const str = (key: string, fallback: string) => c.get<string>(key, fallback).trim();
  return {
    baseUrl: str("baseUrl", defaultBaseUrl) || defaultBaseUrl,
    completion: {
      enabled: c.get<boolean>("completion.enabled", true),
      model: str("completion.model", ""),
      debounceMs: c.get<number>("completion.debounceMs", 120),
      maxTokens: c.get<number>("completion.maxTokens", 64),
      template: str("completion.template", "auto") || "auto",
      disabledLanguages: c.get<string[]>("completion.disabledLanguages", []),
      timeoutSeconds: Math.min(300, Math.max(1, c.get<number>("completion.timeoutSeconds", 15))),
    },
    chat: {
      model: str("chat.model", ""),
      systemPrompt: c.get<string>("chat.systemPrompt", ""),
      temperature: c.get<number>("chat.temperature", 0.2),
      maxTokens: c.get<number>("chat.maxTokens", 1024),
      contextTokens: c.get<number>("chat.contextTokens", 0),
      workspaceContext: c.get<boolean>("chat.workspaceContext", true),
      autoCompact: Math.min(100, Math.max(0, c.get<number>("chat.autoCompact", 85))),
      userPromptsFolder: str("chat.userPromptsFolder", ""),
    },
    image: {
      model: str("image.model", ""),
      width: c.get<number>("image.width", 0),
      height: c.get<number>("image.height", 0),
      steps: c.get<number>("image.steps", 20),
      negativePrompt: c.get<string>("image.negativePrompt", ""),
      format: imageFormats.find((f) => f === c.get<string>("image.format")) ?? "png",
      folder: str("image.folder", "images"),
      sizePresets: c.get<string[]>("image.sizePresets", []).filter((p) => typeof p === "string"),
      seed: c.get<number>("image.seed", -1),
      variations: c.get<number>("image.variations", 4),
      timeoutSeconds: c.get<number>("image.timeoutSeconds", 600),
    },
    agent: {
      maxSteps: Math.max(1, c.get<number>("agent.maxSteps", 25)),
      autoApprove: strings(c.get<unknown>("agent.autoApprove", [])),
      denyCommands: strings(c.get<unknown>("agent.denyCommands", [])),
      commandTimeoutSeconds: Math.max(1, c.get<number>("agent.commandTimeoutSeconds", 120)),
      maxOutputChars: Math.max(1000, c.get<number>("agent.maxOutputChars", 16_000)),
      rules: c.get<boolean>("agent.rules", true),
      approveReads: c.get<string>("agent.approveReads") === "ask" ? "ask" : "auto",
      approveEdits: c.get<string>("agent.approveEdits") === "ask" ? "ask" : "auto",
    },
    mcp: { maxTools: Math.max(0, c.get<number>("mcp.maxTools", 128)), timeoutSeconds: Math.max(1, c.get<number>("mcp.timeoutSeconds", 60)) },
    localServer: { autoStart: c.get<boolean>("localServer.autoStart", true), modelsDir: str("localServer.modelsDir", ""), modelMirror: str("localServer.modelMirror", "") },
    languageModels: { enabled: c.get<boolean>("languageModels.enabled", true) },
    nextEdit: { enabled: c.get<boolean>("nextEdit.enabled", true), model: c.get<string>("nextEdit.model", "").trim() },
    commitMessage: { instructions: c.get<string>("commitMessage.instructions", "") },
    review: { changes: c.get<string>("review.changes") === "staged" ? "staged" : "uncommitted" },
    terminal: { outputLines: Math.max(1, Math.min(1000, c.get<number>("terminal.outputLines", 60))) },
  };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : [];
}
