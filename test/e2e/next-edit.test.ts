import * as assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startScriptedChatServer } from "../harness/scripted-chat-server";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import type { WorkbenchPage } from "../harness/workbench-page";
import { useWorkbench } from "./support/workbench-suite";

const source = ["function sum(items: number[]) {", "  let count = 0;", "  for (const item of items) {", "    count += item;", "  }", "  // count is the total", "  return count;", "}", "function other() {", "  return count;", "}", ""];
/** Every use of the local renamed; the comment and the other function's `count` are not it. */
const renamed = source.map((line, i) => ([1, 3, 6].includes(i) ? line.replace("count", "total") : line));

/** What the editor draws of a next edit, read from the page: decorations' text lives in CSS `content`. */
interface Drawn {
  /** Text of the spans drawn struck through, with the line each is on. */
  struck: { text: string; line: string }[];
  /** Texts drawn after spans (the new text, the hint), with the line each is on. */
  after: { text: string; line: string }[];
}

describe("Next-edit suggestions in the real VS Code UI (local predictor, code-server + Chromium)", () => {
  const key = `sk-wisp-next-edit-${Date.now().toString(36)}`;
  let ui: WorkbenchPage;
  let file = "";

  const suite = useWorkbench(async (temp) => {
    const vsix = ensureVsix();
    const server = await startScriptedChatServer({ key });
    const folder = temp.make("e2e-next-edit");
    file = join(folder, "sum.ts");
    writeFileSync(file, source.join("\n"));
    // Ghost text off: it would take Tab for itself; this suite is about next edits alone.
    return { server, workbench: { vsixes: [vsix], folder, settings: { "wisp.baseUrl": server.baseUrl, "wisp.completion.enabled": false }, env: { WISP_API_KEY: key }, tempPrefix: "e2e-next-edit-" } };
  });
  before(async () => {
    ({ ui } = suite);
    // Wisp has activated (its status bar entry is up) before the first keystroke it should follow.
    await waitFor("the Wisp status bar entry", () => ui.statusText("wisp.wisp.wisp.status").catch(() => ""), (t) => /^Wisp/.test(t), 60_000);
    await ui.openFile("sum.ts");
    await ui.page.locator(".editor-instance .monaco-editor .view-lines").first().click();
  });

  /** The decorations in the editor as drawn: struck-through spans, and the text of `::after` pseudo-elements. */
  const drawn = (): Promise<Drawn> =>
    ui.page.locator(".editor-instance .monaco-editor .view-lines").first().evaluate((lines) => {
      const result: Drawn = { struck: [], after: [] };
      for (const span of lines.querySelectorAll<HTMLElement>(".view-line span")) {
        const line = span.closest(".view-line")?.textContent?.replace(/\u00a0/g, " ") ?? "";
        if (span.children.length === 0 && getComputedStyle(span).textDecorationLine.includes("line-through")) result.struck.push({ text: span.textContent ?? "", line });
        const content = getComputedStyle(span, "::after").content;
        // `none`/`normal` when nothing is drawn; else a CSS string, quoted.
        if (content.startsWith('"')) result.after.push({ text: JSON.parse(content) as string, line });
      }
      return result;
    });
  const hints = async () => (await drawn()).after.filter((a) => a.text.includes("Esc to dismiss"));
  /** The cursor's position as the status bar shows it: "Ln 4, Col 5". */
  const cursor = () => ui.statusText("status.editor.selection");
  /** Saves with Ctrl+S and waits for the file on disk to be what `accept` wants. */
  const save = (what: string, accept: (text: string) => boolean) => {
    return ui.page.keyboard.press("Control+S").then(() => waitFor(what, () => readFileSync(file, "utf8"), accept, 10_000));
  };

  /** Goes to line:column (1-based) the way a user does: the quick input's `:line:column` (what Ctrl+G opens). */
  async function goTo(line: number, column: number): Promise<void> {
    await ui.page.keyboard.press("F1");
    await ui.quickInputBox().waitFor({ state: "visible" });
    await ui.quickInputBox().fill(`:${line}:${column}`);
    await ui.pressInQuickInput("Enter");
    await ui.quickInputBox().waitFor({ state: "hidden" });
    await waitFor("the cursor there", cursor, (c) => c.startsWith(`Ln ${line}, Col ${column}`));
  }

  /** Selects the word at `column` of `line` with the keyboard and types `name` over it. */
  async function renameAt(line: number, column: number, name: string): Promise<void> {
    await goTo(line, column);
    await ui.page.keyboard.press("Control+Shift+ArrowRight");
    await ui.page.keyboard.type(name);
  }

  it("renaming a local on its declaration shows the hint and the change at the next use; Tab jumps, Tab accepts, until every use is renamed", async () => {
    await renameAt(2, 7, "total");
    // Each keystroke brings its own suggestion (count -> t, to, ...): wait for the whole name's.
    const next = await waitFor("the suggestion for the whole name", drawn, (d) => d.after.some((a) => a.text === "total"), 10_000);
    assert.deepEqual(next.struck.map((s) => [s.text, s.line.trim()]), [["count", "count += item;"]], "the old text struck through at the next use");
    assert.deepEqual(
      next.after.map((a) => [a.text, a.line.trim()]).sort(),
      [["Tab to jump to line 4 · Esc to dismiss", "let total = 0;"], ["total", "count += item;"]],
      "the new text after it, and the hint at the end of the cursor's line",
    );
    assert.equal(await cursor(), "Ln 2, Col 12", "the cursor stays where the user typed");

    for (const [line, column, text, next] of [[4, 5, "total += item;", "Tab to jump to line 7 · Esc to dismiss"], [7, 10, "return total;", undefined]] as const) {
      await ui.page.keyboard.press("Tab");
      await waitFor(`the cursor on line ${line}`, cursor, (c) => c === `Ln ${line}, Col ${column}`);
      await waitFor("the hint to accept", hints, (h) => h.length === 1 && h[0]!.text === "Tab to accept · Esc to dismiss");
      await ui.page.keyboard.press("Tab");
      await waitFor(`line ${line} renamed`, () => ui.editorText(), (t) => t.split("\n").some((l) => l.trim() === text));
      // The next use's hint comes with the accepted edit; the last one leaves nothing to propose.
      if (next) await waitFor("the hint for the next use", hints, (h) => h.length === 1 && h[0]!.text === next);
    }
    await waitFor("nothing left to propose", drawn, (d) => d.struck.length === 0 && d.after.length === 0);
    await save("every use renamed, the comment and the other function untouched", (t) => t === renamed.join("\n"));
  });

  it("typing the old name back leaves nothing to propose: the hint and the decorations go", async () => {
    await renameAt(3, 14, "entry");
    await waitFor("the suggestion for the whole name", drawn, (d) => d.after.some((a) => a.text === "entry"), 10_000);
    for (let i = 0; i < "entry".length; i++) await ui.page.keyboard.press("Backspace");
    await ui.page.keyboard.type("item");
    await waitFor("the hint and decorations gone", drawn, (d) => d.struck.length === 0 && d.after.length === 0);
    await save("the file as it was", (t) => t === renamed.join("\n"));
  });

  it("Escape dismisses the suggestion: the hint and the decorations go, and only the typed change stays", async () => {
    // A fresh rename of another local (the loop's `item`).
    await renameAt(3, 14, "entry");
    await waitFor("the suggestion for the whole name", drawn, (d) => d.after.some((a) => a.text === "entry") && d.after.some((a) => a.text === "Tab to jump to line 4 · Esc to dismiss"), 10_000);
    await ui.page.keyboard.press("Escape");
    await waitFor("the hint and decorations gone", drawn, (d) => d.struck.length === 0 && d.after.length === 0);
    assert.equal(await cursor(), "Ln 3, Col 19", "the cursor stays where the user typed");
    const expected = renamed.map((line, i) => (i === 2 ? line.replace("const item", "const entry") : line)).join("\n");
    await save("only the declaration renamed", (t) => t === expected);
  });

  it("with nothing shown, Tab indents as usual", async () => {
    await goTo(12, 1);
    assert.equal((await hints()).length, 0);
    await ui.page.keyboard.press("Tab");
    await waitFor("the cursor after the indentation", cursor, (c) => /^Ln 12, Col [3-9]$/.test(c));
    await save("Tab's indentation on the last line", (t) => /\n[ \t]+$/.test(t));
    assert.equal((await hints()).length, 0, "and no suggestion followed it");
  });
});
