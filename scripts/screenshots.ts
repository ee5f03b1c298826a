import { join } from "node:path";
import { ensureToolchain, repoRoot } from "../test/harness/toolchain";
import { ensureVsix } from "../test/harness/vsix";
import { consoleShot } from "./screenshots/console-shot";
import { chatAndEditShots, ghostTextShot } from "./screenshots/editor-shots";

/**
 * `npm run screenshots`: the README's pictures of the real product, made again the same way each
 * time. The packaged Wisp runs in code-server + Chromium against scripted servers (fixed answers
 * about a small shopping cart), and the web console against a real wisp-server on a fresh data
 * folder. Writes docs/media/*.png.
 */
const media = join(repoRoot, "docs", "media");
const say = (line: string): void => void process.stdout.write(`[screenshots] ${line}\n`);
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KiB`;

async function main(): Promise<void> {
  const toolchain = ensureToolchain();
  const vsix = ensureVsix();
  const setup = { toolchain, vsix, say };
  const files = { ghost: join(media, "ghost-text.png"), chat: join(media, "chat.png"), edit: join(media, "inline-edit.png"), console: join(media, "console.png") };
  say("ghost text");
  const ghost = await ghostTextShot(setup, files.ghost);
  say("chat and inline edit");
  const { chat, edit } = await chatAndEditShots(setup, files);
  say("web console");
  // The keys page's own height: the window below it is empty.
  const web = await consoleShot(toolchain, files.console, { x: 0, y: 0, width: 1280, height: 430 });
  for (const [file, size] of [[files.ghost, ghost], [files.chat, chat], [files.edit, edit], [files.console, web]] as const) say(`${file} (${kib(size)})`);
}

main().then(
  () => process.exit(0),
  (error: Error) => {
    say(`failed: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
