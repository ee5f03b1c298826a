import * as vscode from "vscode";
import type { GeneratedImages, WispClient } from "../../client/wisp-client";
import { isWispError } from "../../client/wisp-error";
import type { ImageRequest } from "../../core/api/images";
import { formatSize } from "../../core/image/image-size";
import { promptFromEditor } from "../../core/image/prompt-from-editor";
import { readRecentPrompts, rememberPrompt } from "../../core/image/recent-prompts";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";
import type { ImageSettings, Settings } from "../settings";
import { resolveImageModel } from "./image-model";
import { askPrompt } from "./prompt-input";
import { askParameters, type ImageParameters } from "./size-input";

export interface ImageFlowDeps {
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  /** Where the recent prompts are kept (the extension's global state). */
  readonly state: vscode.Memento;
}

/** What the user asked for, ready to send. */
export interface ImageAsk {
  readonly client: WispClient;
  readonly image: ImageSettings;
  readonly model: string;
  readonly prompt: string;
  readonly parameters: ImageParameters;
  /** The Markdown editor that was active when the command started, to insert a link into. */
  readonly markdownEditor: vscode.TextEditor | undefined;
}

/** The step at which the user stopped. */
export type CancelledAt = "model" | "prompt" | "size" | "location" | "generation";

const recentPromptsKey = "wisp.image.recentPrompts";
/** Lines around the cursor searched for the comment it is in. */
const commentWindowLines = 200;

/**
 * The input steps of both image commands: key and URL checked first (no typing for nothing), the
 * model, the prompt (from the editor, remembering recent ones), then size and parameters.
 */
export async function askForImage(deps: ImageFlowDeps, title: string): Promise<ImageAsk | CancelledAt> {
  const image = deps.settings.value.image;
  const client = await deps.clients.create({ imageTimeoutMs: image.timeoutSeconds * 1000 });
  client.checkReady();
  const editor = vscode.window.activeTextEditor;
  const markdownEditor = editor?.document.languageId === "markdown" ? editor : undefined;
  const prefill = editor === undefined ? undefined : suggestedPrompt(editor);

  const model = await resolveImageModel(image.model, client, deps.settings.value.baseUrl);
  if (model === undefined) return "model";
  const recent = readRecentPrompts(deps.state.get(recentPromptsKey));
  // The title names the model that will draw: a user sees which one before typing.
  const prompt = await askPrompt(`${title} (${model})`, prefill, recent);
  if (prompt === undefined) return "prompt";
  await deps.state.update(recentPromptsKey, rememberPrompt(recent, prompt));
  const parameters = await askParameters(title, image, (invalid) =>
    deps.log.warn(`wisp.image.sizePresets: not sizes (WIDTHxHEIGHT, multiples of 8): ${invalid.join(", ")}`),
  );
  if (parameters === undefined) return "size";
  return { client, image, model, prompt, parameters, markdownEditor };
}

function suggestedPrompt(editor: vscode.TextEditor): string | undefined {
  const { document, selection } = editor;
  const first = Math.max(0, selection.active.line - commentWindowLines);
  const last = Math.min(document.lineCount - 1, selection.active.line + commentWindowLines);
  const window = new vscode.Range(first, 0, last, document.lineAt(last).text.length);
  return promptFromEditor({
    text: document.getText(window),
    cursorLine: selection.active.line - first,
    selection: document.getText(selection),
    languageId: document.languageId,
  });
}

/**
 * Sends the request under a progress notification whose Cancel button aborts it (closing the
 * connection, so the server stops too). Undefined when cancelled.
 */
export async function generateWithProgress(client: WispClient, request: ImageRequest, log: Logger): Promise<GeneratedImages | undefined> {
  const size = formatSize({ width: request.width ?? 0, height: request.height ?? 0 });
  const what = `${request.n && request.n > 1 ? `${request.n} images` : "image"} ${request.width || request.height ? size : `at ${size}`}, ${request.num_inference_steps} steps with ${request.model}`;
  log.info(`image: generating ${what}, seed ${request.seed}`);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Wisp: generating ${what}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      const started = performance.now();
      // The server sends nothing until the image is done: show that time passes.
      const ticker = setInterval(() => progress.report({ message: `${Math.round((performance.now() - started) / 1000)} s` }), 1000);
      try {
        const result = await client.generateImage(request, controller.signal);
        log.info(`image: ${what} in ${Math.round(performance.now() - started)} ms, seeds ${result.seeds.join(", ")}`);
        return result;
      } catch (error) {
        if (isWispError(error, "cancelled")) {
          log.info(`image: cancelled after ${Math.round(performance.now() - started)} ms`);
          return undefined;
        }
        throw error;
      } finally {
        clearInterval(ticker);
        cancel.dispose();
      }
    },
  );
}
