/** Line-comment markers, for writing extra context into the prefix of templates without file tokens. */
const markers: Readonly<Record<string, string>> = {
  c: "//", cpp: "//", csharp: "//", dart: "//", go: "//", groovy: "//", java: "//", javascript: "//",
  javascriptreact: "//", kotlin: "//", objectivec: "//", php: "//", rust: "//", scala: "//", swift: "//",
  typescript: "//", typescriptreact: "//", vue: "//", zig: "//",
  coffeescript: "#", dockerfile: "#", elixir: "#", julia: "#", makefile: "#", perl: "#", powershell: "#",
  python: "#", r: "#", ruby: "#", shellscript: "#", toml: "#", yaml: "#",
  haskell: "--", lua: "--", sql: "--",
  clojure: ";;", lisp: ";;", scheme: ";;",
  erlang: "%", latex: "%", matlab: "%",
};

/** The marker for a VS Code language id, or undefined where extra context cannot be written safely. */
export function lineCommentFor(languageId: string): string | undefined {
  return markers[languageId];
}
