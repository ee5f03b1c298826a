// Chat-shaped training examples made from the corpus itself: a documented function as the
// attached code, a question about it, and an answer written from its own documentation (the
// docstring or JSDoc), so the default model answers in sentences about code, not in code alone.
import type { CorpusFile } from "./corpus-files";

export interface DocumentedFunction {
  name: string;
  params: string[];
  /** The first paragraph of its documentation, on one line. */
  summary: string;
  paramDocs: { name: string; text: string }[];
  returns?: string;
  code: string;
  startLine: number;
  endLine: number;
}

const MAX_LINES = 30;
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
const usableSummary = (s: string) => s.length >= 20 && s.length <= 400 && /^[A-Z`]/.test(s) && !/TODO|FIXME|deprecated|@|\{@|http/i.test(s);

function paramNames(signature: string): string[] {
  return signature
    .split(",")
    .map((p) => p.trim().replace(/^(\*\*?|\.\.\.)/, "").split(/[:=\s?]/)[0]!)
    .filter((p) => /^[A-Za-z_$][\w$]*$/.test(p) && p !== "self" && p !== "cls" && p !== "this");
}

/** Python functions whose body starts with a docstring. */
export function pythonFunctions(text: string): DocumentedFunction[] {
  const lines = text.split("\n");
  const found: DocumentedFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)(?:async\s+)?def\s+([A-Za-z]\w*)\s*\((.*)$/.exec(lines[i]!);
    if (!head || head[2]!.startsWith("_") || head[2]!.startsWith("test")) continue;
    const indent = head[1]!.length;
    let signature = head[3]!;
    let j = i;
    while (!/\)\s*(->.*)?:\s*(#.*)?$/.test(lines[j]!) && j < i + 6) signature += lines[++j] ?? "";
    const docStart = lines[j + 1]?.trim() ?? "";
    const quote = /^[rRuU]?("""|''')/.exec(docStart)?.[1];
    if (!quote) continue;
    const docLines: string[] = [];
    let k = j + 1;
    let rest = docStart.replace(/^[rRuU]?("""|''')/, "");
    for (; k < lines.length && k < j + 40; k++) {
      const end = rest.indexOf(quote);
      if (end >= 0) {
        docLines.push(rest.slice(0, end));
        break;
      }
      docLines.push(rest);
      rest = lines[k + 1] ?? "";
    }
    let end = k + 1;
    while (end < lines.length && (lines[end]!.trim() === "" || lines[end]!.search(/\S/) > indent)) end++;
    while (end > k + 1 && lines[end - 1]!.trim() === "") end--;
    if (end - i > MAX_LINES || end <= k + 1) continue;
    const doc = docLines.join("\n");
    const summary = oneLine(doc.split(/\n\s*\n/)[0] ?? "");
    if (!usableSummary(summary)) continue;
    const returns = /(?:^|\n)\s*(?:Returns?:?\s*\n?|:returns?:)\s*(.+)/.exec(doc)?.[1];
    found.push({
      name: head[2]!,
      params: paramNames(signature.replace(/\)\s*(->.*)?:\s*(#.*)?$/, "")),
      summary,
      paramDocs: [],
      returns: returns ? oneLine(returns) : undefined,
      code: lines.slice(i, end).map((l) => l.slice(indent)).join("\n"),
      startLine: i + 1,
      endLine: end,
    });
    i = end - 1;
  }
  return found;
}

/** JavaScript/TypeScript functions and methods right after a JSDoc comment. */
export function scriptFunctions(text: string): DocumentedFunction[] {
  const lines = text.split("\n");
  const found: DocumentedFunction[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\/\*\*/.test(lines[i]!)) continue;
    let j = i;
    while (j < lines.length && !lines[j]!.includes("*/") && j < i + 40) j++;
    const declaration = lines[j + 1] ?? "";
    const head =
      /^(\s*)(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(([^)]*)\)/.exec(declaration) ??
      /^(\s*)(?:export\s+)?(?:const|let)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\(([^)]*)\)[^=]*=>/.exec(declaration) ??
      /^(\s*)(?:public\s+|private\s+|protected\s+|static\s+|async\s+)*([A-Za-z_$][\w$]*)\s*(?:<[^>]*>)?\s*\(([^)]*)\)[^;]*\{\s*$/.exec(declaration);
    if (!head || /^(if|for|while|switch|catch|function|constructor)$/.test(head[2]!) || head[2]!.startsWith("_")) continue;
    const indent = head[1]!.length;
    let depth = 0;
    let end = j + 1;
    let opened = false;
    for (; end < lines.length && end < j + 1 + MAX_LINES; end++) {
      for (const ch of lines[end]!.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, "").replace(/\/\/.*$/, "")) {
        if (ch === "{") (depth++, (opened = true));
        else if (ch === "}") depth--;
      }
      if (opened && depth <= 0) break;
    }
    if (!opened || depth > 0 || end >= lines.length) continue;
    const doc = lines
      .slice(i, j + 1)
      .map((l) => l.replace(/^\s*\/?\*+\/?/, "").replace(/\*\/\s*$/, ""))
      .join("\n");
    const summary = oneLine(doc.split(/\n\s*\n|\n\s*@/)[0] ?? "");
    if (!usableSummary(summary)) continue;
    const paramDocs = [...doc.matchAll(/@param\s+(?:\{[^}]*\}\s*)?\[?([\w$.]+)[^\]\s]*\]?\s*(?:-\s*)?(.*)/g)]
      .map((m) => ({ name: m[1]!, text: oneLine(m[2]!) }))
      .filter((p) => p.text.length > 3 && !p.name.includes("."));
    const returns = /@returns?\s+(?:\{[^}]*\}\s*)?(.+)/.exec(doc)?.[1];
    found.push({
      name: head[2]!,
      params: paramNames(head[3]!),
      summary,
      paramDocs,
      returns: returns ? oneLine(returns) : undefined,
      code: lines.slice(j + 1, end + 1).map((l) => l.slice(Math.min(indent, l.search(/\S|$/)))).join("\n"),
      startLine: j + 2,
      endLine: end + 1,
    });
    i = end;
  }
  return found;
}

const THIRD_PERSON_IRREGULAR: Record<string, string> = { do: "does", go: "goes", be: "is", have: "has" };

/** "Return the sum." -> "returns the sum." (docstrings are usually imperative). */
export function thirdPerson(summary: string): string {
  const [first = "", ...rest] = summary.split(" ");
  const word = first.toLowerCase();
  if (!/^[a-z]+$/.test(word)) return summary;
  let verb: string;
  if (THIRD_PERSON_IRREGULAR[word]) verb = THIRD_PERSON_IRREGULAR[word];
  else if (word.endsWith("s")) verb = word;
  else if (/(sh|ch|x|z|o)$/.test(word)) verb = `${word}es`;
  else if (/[^aeiou]y$/.test(word)) verb = `${word.slice(0, -1)}ies`;
  else verb = `${word}s`;
  return [verb, ...rest].join(" ");
}

const IMPERATIVE = /^(Return|Get|Set|Create|Make|Build|Convert|Parse|Check|Test|Compute|Calculate|Find|Add|Remove|Delete|Read|Write|Load|Save|Open|Close|Start|Stop|Run|Call|Send|Handle|Format|Render|Apply|Update|Reset|Clear|Initialize|Register|Resolve|Validate|Generate|Encode|Decode|Split|Join|Merge|Copy|Move|Insert|Append|Emit|Wait|Try|Determine|Normalize|Serialize|Deserialize|Extract|Translate|Print|Compare|Sort|Filter|Map|Wrap|Unwrap|Escape|Quote|Fetch|Look|Search|Replace|Ensure|Install|Define|Construct|Process|Prepare|Retrieve|Transform|Iterate|Yield|Raise|Invoke|Execute|Attach|Detach|Bind|Mark|Flush|Skip|Use|Take|Give|Count|Decorator|Helper)\b/;

/** A short answer in the voice of the chat: what the function does, its inputs and its result. */
export function answerFor(fn: DocumentedFunction, variant: number): string {
  const name = `\`${fn.name}\``;
  const summary = fn.summary.endsWith(".") ? fn.summary : `${fn.summary}.`;
  const opening = IMPERATIVE.test(summary)
    ? [`${name} ${thirdPerson(summary)}`, `This function, ${name}, ${thirdPerson(summary)}`, `It ${thirdPerson(summary)}`][variant % 3]!
    : [`${name}: ${summary}`, `This is ${name}. ${summary}`, `${summary}`][variant % 3]!;
  const parts = [opening];
  if (fn.paramDocs.length > 0) {
    parts.push(`It takes:\n${fn.paramDocs.map((p) => `- \`${p.name}\`: ${p.text}`).join("\n")}`);
  } else if (fn.params.length > 0) {
    const list = fn.params.map((p) => `\`${p}\``);
    parts.push(`It takes ${list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`}.`);
  }
  if (fn.returns) parts.push(`It returns ${fn.returns.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase()).replace(/\.?$/, ".")}`);
  return parts.join("\n\n");
}

const QUESTIONS = [
  "Explain what this code does, step by step.",
  "What does this function do?",
  "What does `{name}` do?",
  "Explain this code.",
  "What is `{name}` for?",
  "Can you explain this function?",
];

export const DEFAULT_SYSTEM_PROMPT = "You are Wisp, a concise coding assistant. Answer about the user's code; use Markdown code blocks.";

export interface ChatExample {
  messages: { role: "system" | "user" | "assistant"; content: string }[];
}

/** The chat request the extension would send for this function, with the answer to learn. */
export function chatExample(file: CorpusFile, fn: DocumentedFunction, pick: (n: number) => number): ChatExample {
  const question = QUESTIONS[pick(QUESTIONS.length)]!.replace("{name}", fn.name);
  const shortPath = file.path.split("/").slice(-2).join("/");
  const fence = "```";
  const lines = fn.startLine === fn.endLine ? `line ${fn.startLine}` : `lines ${fn.startLine}-${fn.endLine}`;
  const user = `${question}\n\n${shortPath}, ${lines} (${file.language}):\n${fence}${file.language}\n${fn.code}\n${fence}`;
  const messages: ChatExample["messages"] = [];
  if (pick(10) < 7) messages.push({ role: "system", content: DEFAULT_SYSTEM_PROMPT });
  messages.push({ role: "user", content: user }, { role: "assistant", content: answerFor(fn, pick(3)) });
  return { messages };
}
