// The inference engine behind the team's replicas, in a process of its own (the test's own
// process is busy being 64 clients): two scripted OpenAI-style servers, `scripted-chat` answering
// quickly and `scripted-slow` slowly. Prints their base URLs as one JSON line, then serves until
// it is stopped.
import { startScriptedChatServer } from "../../harness/scripted-chat-server";

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
const [key = "upstream-key", fastTokens = "12", fastRate = "20"] = process.argv.slice(2);
const fast = await startScriptedChatServer({ key, models: [{ id: "scripted-chat", context_length: 8192 }], fallback: { text: words(Number(fastTokens)), tokensPerSecond: Number(fastRate) } });
const slow = await startScriptedChatServer({ key, models: [{ id: "scripted-slow", context_length: 8192 }], fallback: { text: words(40), tokensPerSecond: 10 } });
process.stdout.write(`${JSON.stringify({ fast: fast.baseUrl, slow: slow.baseUrl })}\n`);
