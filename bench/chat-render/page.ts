// Browser side of bench/chat-render.bench.ts: the chat's own markdown rendering, driven step by step.
import { decorateCodeBlocks } from "../../src/webview/chat/code-blocks";
import { renderMarkdown } from "../../src/webview/chat/markdown";
import { StreamingMarkdown } from "../../src/webview/chat/streaming-markdown";

export type RenderMode = "incremental" | "full";

/**
 * Streams `pieces` into a fresh answer, `perStep` pieces per step (one step = one frame), and
 * returns the milliseconds each step took: rendering plus the layout the frame would do.
 */
function runRender(pieces: string[], perStep: number, mode: RenderMode): number[] {
  const host = document.getElementById("out")!;
  const ignore = () => undefined;
  const streaming = new StreamingMarkdown(ignore, ignore);
  host.replaceChildren(mode === "incremental" ? streaming.element : "");
  const times: number[] = [];
  let text = "";
  for (let i = 0; i < pieces.length; i += perStep) {
    text += pieces.slice(i, i + perStep).join("");
    const last = i + perStep >= pieces.length;
    const start = performance.now();
    if (mode === "incremental") streaming.update(text, last);
    else {
      // The obvious way: render the whole answer again on every frame.
      const fragment = renderMarkdown(text);
      decorateCodeBlocks(fragment, ignore, ignore);
      host.replaceChildren(fragment);
    }
    void host.offsetHeight;
    times.push(performance.now() - start);
  }
  return times;
}

(window as unknown as { runRender: typeof runRender }).runRender = runRender;
