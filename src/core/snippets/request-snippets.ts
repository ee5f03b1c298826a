/**
 * "View as code": one API request written out as curl, TypeScript (`openai` SDK) or Python
 * (`openai` SDK), ready to run with the key in an environment variable. Never takes the key
 * itself, so a snippet can be shown, copied or logged safely.
 */

export type SnippetLanguage = "curl" | "typescript" | "python";

export const snippetLanguages: readonly SnippetLanguage[] = ["curl", "typescript", "python"];

export type SnippetEndpoint = "chat.completions" | "completions" | "images.generations";

export interface SnippetRequest {
  readonly endpoint: SnippetEndpoint;
  /** The JSON body, exactly as it is sent (including `stream` when streaming). */
  readonly body: Readonly<Record<string, unknown>>;
}

export interface SnippetTarget {
  /** The API root, ending in `/v1`. */
  readonly baseUrl: string;
  /** The environment variable that holds the key (default `WISP_API_KEY`). */
  readonly apiKeyEnv?: string;
}

interface EndpointInfo {
  readonly path: string;
  readonly tsCall: string;
  readonly pyCall: string;
  readonly tsParams: string;
  /** Body fields the SDKs' types know; the others go as extra body fields. */
  readonly known: ReadonlySet<string>;
}

const endpoints: Record<SnippetEndpoint, EndpointInfo> = {
  "chat.completions": {
    path: "/chat/completions",
    tsCall: "client.chat.completions.create",
    pyCall: "client.chat.completions.create",
    tsParams: "OpenAI.Chat.ChatCompletionCreateParams",
    known: new Set(["model", "messages", "max_tokens", "max_completion_tokens", "temperature", "top_p", "n", "stream", "stream_options", "stop", "presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "seed", "user", "response_format", "tools", "tool_choice", "parallel_tool_calls", "functions", "function_call"]),
  },
  completions: {
    path: "/completions",
    tsCall: "client.completions.create",
    pyCall: "client.completions.create",
    tsParams: "OpenAI.CompletionCreateParams",
    known: new Set(["model", "prompt", "suffix", "max_tokens", "temperature", "top_p", "n", "stream", "stream_options", "stop", "presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "seed", "echo", "user", "best_of"]),
  },
  "images.generations": {
    path: "/images/generations",
    tsCall: "client.images.generate",
    pyCall: "client.images.generate",
    tsParams: "OpenAI.ImageGenerateParams",
    known: new Set(["model", "prompt", "n", "size", "response_format", "quality", "style", "user"]),
  },
};

export function requestSnippet(language: SnippetLanguage, request: SnippetRequest, target: SnippetTarget): string {
  const env = target.apiKeyEnv ?? "WISP_API_KEY";
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(env)) throw new Error(`not an environment variable name: ${env}`);
  const baseUrl = target.baseUrl.replace(/\/+$/, "");
  switch (language) {
    case "curl":
      return curlSnippet(request, baseUrl, env);
    case "typescript":
      return typescriptSnippet(request, baseUrl, env);
    case "python":
      return pythonSnippet(request, baseUrl, env);
  }
}

function curlSnippet(request: SnippetRequest, baseUrl: string, env: string): string {
  const info = endpoints[request.endpoint];
  const streaming = request.body.stream === true;
  return [
    `curl${streaming ? " -N" : ""} ${shellQuote(baseUrl + info.path)} \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -H "Authorization: Bearer $${env}" \\`,
    `  -d ${shellQuote(JSON.stringify(request.body, null, 2))}`,
  ].join("\n");
}

function typescriptSnippet(request: SnippetRequest, baseUrl: string, env: string): string {
  const info = endpoints[request.endpoint];
  const extras = Object.keys(request.body).filter((k) => !info.known.has(k));
  const literal = JSON.stringify(request.body, null, 2);
  const lines = [
    ...(request.endpoint === "images.generations" ? [`import { writeFileSync } from "node:fs";`] : []),
    `import OpenAI from "openai";`,
    ``,
    `const client = new OpenAI({ baseURL: ${JSON.stringify(baseUrl)}, apiKey: process.env.${env} });`,
    ``,
  ];
  let args = literal;
  if (extras.length > 0) {
    // An intersection with a record admits fields the SDK's types do not list; they are sent as-is.
    lines.push(`// ${extras.join(", ")}: not in OpenAI's API; this server accepts ${extras.length === 1 ? "it" : "them"}.`);
    lines.push(`const params: ${info.tsParams} & Record<string, unknown> = ${literal};`);
    args = "params";
  }
  if (request.endpoint === "images.generations") {
    // The image goes to a file, as the playground shows it (its format is the server's).
    lines.push(`const response = await ${info.tsCall}(${args});`);
    lines.push(`const file = \`image.\${response.output_format ?? "png"}\`;`);
    lines.push(`writeFileSync(file, Buffer.from(response.data?.[0]?.b64_json ?? "", "base64"));`);
    lines.push(`console.log(\`saved \${file}\`);`);
  } else if (hasTools(request)) {
    lines.push(...typescriptToolLines(request, info.tsCall, args));
  } else if (request.body.stream === true) {
    const delta = request.endpoint === "chat.completions" ? "chunk.choices[0]?.delta?.content" : "chunk.choices[0]?.text";
    lines.push(`const stream = await ${info.tsCall}(${args});`);
    lines.push(`for await (const chunk of stream) process.stdout.write(${delta} ?? "");`);
    lines.push(`process.stdout.write("\\n");`);
  } else {
    const text = request.endpoint === "chat.completions" ? "response.choices[0]?.message.content" : "response.choices[0]?.text";
    lines.push(`const response = await ${info.tsCall}(${args});`);
    lines.push(`console.log(${text});`);
  }
  return lines.join("\n");
}

function pythonSnippet(request: SnippetRequest, baseUrl: string, env: string): string {
  const info = endpoints[request.endpoint];
  const known = Object.entries(request.body).filter(([k]) => info.known.has(k));
  const extras = Object.entries(request.body).filter(([k]) => !info.known.has(k));
  const args = known.map(([k, v]) => `    ${k}=${pythonLiteral(v, 4)},`);
  if (extras.length > 0) args.push(`    extra_body=${pythonLiteral(Object.fromEntries(extras), 4)},`);
  const lines = [
    ...(request.endpoint === "images.generations" ? [`import base64`] : []),
    `import os`,
    ``,
    `from openai import OpenAI`,
    ``,
    `client = OpenAI(base_url=${JSON.stringify(baseUrl)}, api_key=os.environ[${JSON.stringify(env)}])`,
    ``,
  ];
  const call = (name: string) => [`${name} = ${info.pyCall}(`, ...args, `)`];
  if (request.endpoint === "images.generations") {
    lines.push(
      ...call("response"),
      // output_format: newer SDKs only.
      `file = "image." + (getattr(response, "output_format", None) or "png")`,
      `with open(file, "wb") as out:`,
      `    out.write(base64.b64decode(response.data[0].b64_json or ""))`,
      `print("saved", file)`,
    );
  } else if (hasTools(request)) {
    lines.push(...pythonToolLines(request, call));
  } else if (request.body.stream === true) {
    const delta = request.endpoint === "chat.completions" ? "chunk.choices[0].delta.content" : "chunk.choices[0].text";
    lines.push(...call("stream"), `for chunk in stream:`, `    if chunk.choices:`, `        print(${delta} or "", end="", flush=True)`, `print()`);
  } else {
    const text = request.endpoint === "chat.completions" ? "response.choices[0].message.content" : "response.choices[0].text";
    lines.push(...call("response"), `print(${text})`);
  }
  return lines.join("\n");
}

const hasTools = (request: SnippetRequest) => request.endpoint === "chat.completions" && (Array.isArray(request.body.tools) || Array.isArray(request.body.functions));

/** A chat with tools prints the calls the model makes (name and arguments) as well as its text. */
function typescriptToolLines(request: SnippetRequest, tsCall: string, args: string): string[] {
  if (request.body.stream === true) {
    return [
      `const stream = await ${tsCall}(${args});`,
      `for await (const chunk of stream) {`,
      `  const delta = chunk.choices[0]?.delta;`,
      `  // A call arrives as its name first, then its arguments in pieces.`,
      `  for (const call of delta?.tool_calls ?? []) process.stdout.write((call.function?.name ? \`\\n${"${call.function.name}"} \` : "") + (call.function?.arguments ?? ""));`,
      `  process.stdout.write(delta?.content ?? "");`,
      `}`,
      `process.stdout.write("\\n");`,
    ];
  }
  return [
    `const response = await ${tsCall}(${args});`,
    `const message = response.choices[0]?.message;`,
    `for (const call of message?.tool_calls ?? []) if (call.type === "function") console.log(call.function.name, call.function.arguments);`,
    `if (message?.content) console.log(message.content);`,
  ];
}

function pythonToolLines(request: SnippetRequest, call: (name: string) => string[]): string[] {
  if (request.body.stream === true) {
    return [
      ...call("stream"),
      `for chunk in stream:`,
      `    if chunk.choices:`,
      `        delta = chunk.choices[0].delta`,
      `        # A call arrives as its name first, then its arguments in pieces.`,
      `        for tool_call in delta.tool_calls or []:`,
      `            if tool_call.function:`,
      `                name = tool_call.function.name`,
      `                print(("\\n" + name + " " if name else "") + (tool_call.function.arguments or ""), end="", flush=True)`,
      `        print(delta.content or "", end="", flush=True)`,
      `print()`,
    ];
  }
  return [
    ...call("response"),
    `message = response.choices[0].message`,
    `for tool_call in message.tool_calls or []:`,
    `    print(tool_call.function.name, tool_call.function.arguments)`,
    `if message.content:`,
    `    print(message.content)`,
  ];
}

/** POSIX single quotes: nothing inside is expanded; a quote is closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A JSON value as a Python literal (True/False/None), indented like JSON.stringify(_, null, 4). */
export function pythonLiteral(value: unknown, indent = 0): string {
  const pad = (n: number) => " ".repeat(n);
  const render = (v: unknown, depth: number): string => {
    if (v === null || v === undefined) return "None";
    if (v === true) return "True";
    if (v === false) return "False";
    if (typeof v === "number") return Number.isFinite(v) ? JSON.stringify(v) : "None";
    if (typeof v === "string") return JSON.stringify(v); // JSON string escapes are valid Python
    const inner = pad(indent + (depth + 1) * 4);
    const outer = pad(indent + depth * 4);
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      return `[\n${v.map((x) => inner + render(x, depth + 1)).join(",\n")},\n${outer}]`;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${render(x, depth + 1)}`).join(",\n")},\n${outer}}`;
  };
  return render(value, 0);
}
