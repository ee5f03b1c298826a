/**
 * highlight.js core with the languages chat answers mostly use (the full build is ~900 KB).
 * Unknown or missing languages stay plain text: guessing would cost every frame of a stream.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import csharp from "highlight.js/lib/languages/csharp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import kotlin from "highlight.js/lib/languages/kotlin";
import markdown from "highlight.js/lib/languages/markdown";
import php from "highlight.js/lib/languages/php";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const languages = { bash, c, cpp, csharp, css, diff, go, java, javascript, json, kotlin, markdown, php, python, ruby, rust, shell, sql, typescript, xml, yaml };
for (const [name, definition] of Object.entries(languages)) hljs.registerLanguage(name, definition);
// VS Code language ids that highlight.js names differently.
hljs.registerAliases(["shellscript", "sh", "zsh"], { languageName: "bash" });
hljs.registerAliases(["typescriptreact", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["javascriptreact", "jsx"], { languageName: "javascript" });
hljs.registerAliases(["jsonc"], { languageName: "json" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });

/** The code as highlighted HTML (escaped by highlight.js), or undefined when the language is unknown. */
export function highlightCode(code: string, language: string): string | undefined {
  if (language === "" || hljs.getLanguage(language) === undefined) return undefined;
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
