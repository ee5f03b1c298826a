// The chat panel's page (bundled to dist/webview/main-chat.js, loaded by nonce under a strict CSP).
import { ChatApp } from "./chat/chat-app";
import { Host } from "./chat/vscode-api";

new ChatApp(new Host(), document.body);
