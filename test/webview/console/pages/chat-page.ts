// The console playground's chat (src/console/chat-view.ts) in the test page, on a stand-in for
// the server: the first answer streams "Once upon" and then hangs until stopped; later answers
// stream "Hello!" and end (one to "Hold on" only once consoleChat.release() is called).
import { ChatView } from "../../../../src/console/chat-view";
import type { ConsoleApi } from "../../../../src/console/console-api";

const sent: unknown[] = [];
let release = () => {};
const sse = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;

function v1(_method: string, _path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  sent.push(body);
  const first = sent.length === 1;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const answer = () => {
        controller.enqueue(encoder.encode(sse("Hello!") + "data: [DONE]\n\n"));
        controller.close();
      };
      const held = JSON.stringify(body).includes("Hold on");
      if (!first && held) return void (release = answer);
      if (!first) return answer();
      controller.enqueue(encoder.encode(sse("Once upon")));
      signal?.addEventListener("abort", () => controller.error(new DOMException("The user aborted a request.", "AbortError")));
    },
  });
  return Promise.resolve(new Response(stream, { headers: { "content-type": "text/event-stream" } }));
}

const view = new ChatView({ baseUrl: "http://127.0.0.1/v1", v1 } as unknown as ConsoleApi);
view.setModels([{ id: "m" }]);
document.body.replaceChildren(view.element);

const button = (text: string) => [...document.querySelectorAll("button")].find((b) => b.textContent === text)!;

Object.assign(window, {
  consoleChat: {
    send(text: string) {
      document.querySelector<HTMLTextAreaElement>("textarea[name=message]")!.value = text;
      button("Send").click();
    },
    click: (text: string) => button(text).click(),
    /** The conversation as shown: "role: text" per message. */
    messages: () => [...document.querySelectorAll(".messages li")].map((li) => `${li.querySelector(".role")!.textContent}: ${li.querySelector(".content")!.textContent}`),
    idle: () => !button("Send").disabled,
    release: () => release(),
    /** The messages of each request sent. */
    sent: () => sent.map((body) => (body as { messages: { role: string; content: string }[] }).messages.map((m) => `${m.role}: ${m.content}`)),
  },
});
