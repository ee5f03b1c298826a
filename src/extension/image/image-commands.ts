import * as vscode from "vscode";
import type { ImageExtension } from "../../core/api/images";
import { buildImageRequest } from "../../core/image/image-request";
import { imageKindOf } from "../../core/image/image-kind";
import { formatSize, type ImageSize } from "../../core/image/image-size";
import { markdownImage, markdownImageLink } from "../../core/image/markdown-link";
import { reportFor, showImageError } from "./image-error-report";
import { askForImage, generateWithProgress, type CancelledAt, type ImageAsk, type ImageFlowDeps } from "./image-flow";
import { askForFile, chooseSaveTarget, saveFailureMessage, saveImage, type SaveTarget } from "./image-saver";
import { showVariationsPanel } from "./variations-panel";

export interface ImageCommandDeps extends ImageFlowDeps {
  readonly extensionUri: vscode.Uri;
  /** An image was made (saved, or variations shown). */
  readonly onGenerated?: () => void;
}

/** What an image command ended with; returned to scripted callers (and the extension's tests). */
export type ImageCommandResult =
  | { readonly kind: "saved"; readonly uri: string; readonly seed: number | undefined; readonly model: string; readonly size: ImageSize; readonly format: ImageExtension; readonly prompt: string }
  | { readonly kind: "shown"; readonly seeds: readonly (number | undefined)[]; readonly model: string; readonly size: ImageSize; readonly prompt: string }
  | { readonly kind: "cancelled"; readonly at: CancelledAt }
  | { readonly kind: "failed"; readonly message: string; readonly actions: readonly string[] };

const generateTitle = "Wisp: Generate Image";
const variationsTitle = "Wisp: Generate Image Variations";
const saveAs = "Save As…";

/** Registers `Wisp: Generate Image` and `Wisp: Generate Image Variations`. */
export function registerImageCommands(deps: ImageCommandDeps): vscode.Disposable {
  const panels = new Set<vscode.WebviewPanel>();
  const run = (id: string, body: (attempt: Attempt) => Promise<ImageCommandResult>) =>
    vscode.commands.registerCommand(id, async (): Promise<ImageCommandResult> => {
      const attempt: Attempt = {};
      try {
        const result = await body(attempt);
        if (result.kind === "saved" || result.kind === "shown") deps.onGenerated?.();
        return result;
      } catch (error) {
        const image = deps.settings.value.image;
        const report = reportFor(error, image, deps.settings.value.baseUrl, attempt.model, attempt.size);
        showImageError(report, deps.log, () => void vscode.commands.executeCommand(id));
        return { kind: "failed", message: report.message, actions: report.actions };
      }
    });
  return vscode.Disposable.from(
    run("wisp.generateImage", (attempt) => generateImage(deps, attempt)),
    run("wisp.generateImageVariations", (attempt) => generateVariations(deps, attempt, panels)),
    { dispose: () => panels.forEach((panel) => panel.dispose()) },
  );
}

/** What a failure message can name: the model and size asked for so far. */
interface Attempt {
  model?: string;
  size?: ImageSize;
}

async function generateImage(deps: ImageCommandDeps, attempt: Attempt): Promise<ImageCommandResult> {
  const ask = await askForImage(deps, generateTitle);
  if (typeof ask === "string") return { kind: "cancelled", at: ask };
  Object.assign(attempt, { model: ask.model, size: ask.parameters.size });
  const started = new Date();
  const { prompt, image, parameters } = ask;
  // Without a workspace the file is chosen first: the user is not kept waiting for a dialog.
  const target = await chooseSaveTarget(image.folder, prompt, image.format, started);
  if (target === undefined) return { kind: "cancelled", at: "location" };
  const request = buildImageRequest({ ...parameters, model: ask.model, prompt, format: image.format, count: 1 });
  const result = await generateWithProgress(ask.client, request, deps.log);
  if (result === undefined) return { kind: "cancelled", at: "generation" };
  const seed = result.seeds[0] ?? (parameters.seed >= 0 ? parameters.seed : undefined);
  const bytes = result.images[0]!;
  const format = formatOf(deps, bytes, image.format);
  let file: vscode.Uri;
  try {
    file = await saveImage(target, bytes, prompt, format, started);
  } catch (error) {
    const message = saveFailureMessage(error, target);
    deps.log.error(`image: ${message} (${error instanceof Error ? error.message : String(error)})`);
    offerSaveElsewhere(deps, ask, message, target, { bytes, format, seed, now: started });
    return { kind: "failed", message, actions: [saveAs, "Open Settings"] };
  }
  await present(deps, ask, file, seed);
  return { kind: "saved", uri: file.toString(), seed, model: ask.model, size: parameters.size, format, prompt };
}

async function generateVariations(deps: ImageCommandDeps, attempt: Attempt, panels: Set<vscode.WebviewPanel>): Promise<ImageCommandResult> {
  const ask = await askForImage(deps, variationsTitle);
  if (typeof ask === "string") return { kind: "cancelled", at: ask };
  Object.assign(attempt, { model: ask.model, size: ask.parameters.size });
  const { prompt, image, parameters } = ask;
  const count = Math.min(4, Math.max(2, Math.round(image.variations)));
  // New seeds each time, unless the advanced step named one (then seed, seed + 1, …).
  const seed = parameters.advanced ? parameters.seed : -1;
  const request = buildImageRequest({ ...parameters, seed, model: ask.model, prompt, format: image.format, count });
  const result = await generateWithProgress(ask.client, request, deps.log);
  if (result === undefined) return { kind: "cancelled", at: "generation" };
  const variations = result.images.map((bytes, index) => ({ bytes, seed: result.seeds[index], format: formatOf(deps, bytes, image.format) }));
  const panel = showVariationsPanel(deps.extensionUri, {
    prompt,
    details: `${formatSize(parameters.size)}, ${parameters.steps} steps, ${ask.model}: pick one to save`,
    format: variations[0]!.format,
    variations,
    save: async (index) => {
      const now = new Date();
      const variation = variations[index]!;
      const target = await chooseSaveTarget(image.folder, prompt, variation.format, now);
      if (target === undefined) throw new Error("Not saved: no file was chosen.");
      const file = await saveImage(target, variation.bytes, prompt, variation.format, now).catch((error: unknown) => {
        throw new Error(saveFailureMessage(error, target));
      });
      // Beside the preview, which keeps the focus: more variations can be saved from it.
      await present(deps, ask, file, variation.seed, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true });
      return vscode.workspace.asRelativePath(file);
    },
  });
  panels.add(panel);
  panel.onDidDispose(() => panels.delete(panel));
  return { kind: "shown", seeds: result.seeds, model: ask.model, size: parameters.size, prompt };
}

/**
 * Says why the image could not be saved in `target`, with Save As… (the image, which took its time
 * to make, is kept until the message closes) and Open Settings (wisp.image.folder). Not awaited.
 */
function offerSaveElsewhere(deps: ImageCommandDeps, ask: ImageAsk, message: string, target: SaveTarget, image: { bytes: Uint8Array; format: ImageExtension; seed: number | undefined; now: Date }): void {
  const { format } = image;
  void vscode.window.showErrorMessage(`Wisp: ${message} Save it elsewhere, or choose the folder in wisp.image.folder.`, saveAs, "Open Settings").then(async (choice) => {
    if (choice === "Open Settings") return void (await vscode.commands.executeCommand("workbench.action.openSettings", "wisp.image.folder"));
    if (choice !== saveAs) return;
    const chosen = await askForFile(ask.prompt, format, image.now, target);
    if (chosen === undefined) return;
    try {
      await present(deps, ask, await saveImage(chosen, image.bytes, ask.prompt, format, image.now), image.seed);
    } catch (again) {
      void vscode.window.showErrorMessage(`Wisp: ${saveFailureMessage(again, chosen)}`);
    }
  });
}

/**
 * The format the image's bytes are in: a server may answer PNG to a request for JPEG or WebP
 * (OpenAI's DALL·E models do), and a file named .jpg holding a PNG confuses what opens it.
 */
function formatOf(deps: ImageCommandDeps, bytes: Uint8Array, asked: ImageExtension): ImageExtension {
  const kind = imageKindOf(bytes) ?? asked;
  if (kind !== asked) deps.log.info(`image: asked for ${asked}, the server answered ${kind}: saved as .${kind}`);
  return kind;
}

/**
 * Opens the image in VS Code's image preview (beside a Markdown editor, which keeps the focus)
 * and says where it is and the seed that makes it again, offering to insert a Markdown link.
 */
async function present(deps: ImageCommandDeps, ask: ImageAsk, file: vscode.Uri, seed: number | undefined, show: vscode.TextDocumentShowOptions = {}): Promise<void> {
  const markdown = ask.markdownEditor;
  const beside = { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true };
  await vscode.commands.executeCommand("vscode.open", file, markdown ? beside : show);
  const where = vscode.workspace.asRelativePath(file);
  const seedText = seed === undefined ? "the server did not report the seed" : `seed ${seed}`;
  deps.log.info(`image: saved ${file.fsPath} (${seedText})`);
  const insert = "Insert Markdown Link";
  const copy = "Copy Seed";
  const buttons = [...(markdown ? [insert] : []), ...(seed === undefined ? [] : [copy])];
  void vscode.window
    .showInformationMessage(`Wisp: saved ${where} (${formatSize(ask.parameters.size)}, ${seedText}).`, ...buttons)
    .then(async (choice) => {
      if (choice === insert && markdown) await insertMarkdownLink(markdown.document.uri, file, ask.prompt);
      if (choice === copy) await vscode.env.clipboard.writeText(String(seed));
    });
}

/** Inserts `![prompt](relative path)` after the cursor's paragraph line in the Markdown file. */
async function insertMarkdownLink(document: vscode.Uri, file: vscode.Uri, prompt: string): Promise<void> {
  const editor = await vscode.window.showTextDocument(document);
  const sameRoot = document.scheme === file.scheme && document.authority === file.authority;
  const link = sameRoot ? markdownImageLink(prompt, document.path, file.path) : markdownImage(prompt, file.toString());
  const line = editor.document.lineAt(editor.selection.end.line);
  // On an empty line the link goes there; otherwise after the line, as its own paragraph.
  const [position, text] = line.isEmptyOrWhitespace ? [line.range.start, link] : [line.range.end, `\n\n${link}`];
  await editor.edit((edit) => edit.insert(position, text));
}
