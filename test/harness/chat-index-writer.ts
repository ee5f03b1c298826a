/**
 * A window's chat storage writing the chat index COUNT times (argv: folder, count, padding): the
 * second process of a two-windows test. Prints the errors its storage logged, as JSON.
 */
import { FileChatStorage } from "../../src/extension/chat/file-chat-storage";
import type { Logger } from "../../src/extension/logger";

const [folder, count, padding] = process.argv.slice(2);
const errors: string[] = [];
const log = { info() {}, warn() {}, error: (message: string) => errors.push(message) } as unknown as Logger;
const storage = FileChatStorage.open(folder!, log);
const pad = "x".repeat(Number(padding));
for (let n = 0; n < Number(count); n++) void storage.update("wisp.chat.index", { version: 1, activeId: "", chats: [], writer: process.pid, n, pad });
process.stdout.write(JSON.stringify(errors));
