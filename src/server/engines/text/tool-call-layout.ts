// How a model writes one tool call: `prefix` name `paramsPrefix` arguments-JSON `suffix`, e.g.
// `<tool_call>\n{"name": "` get_weather `", "arguments": ` {...} `}\n</tool_call>`. Generation
// under a call grammar (tool-call-grammar.ts) writes exactly this, so the call is read back by
// position, also while it streams.

export interface CallLayout {
  prefix: string;
  paramsPrefix: string;
  /** May contain `{{functionName}}`. */
  suffix: string;
}

/** Where a model's free text turns into a call: the prefix's first line, without spaces around it. */
export function callMarker(layout: CallLayout): string {
  return layout.prefix.trim().split("\n")[0]!.trim();
}

export const suffixFor = (layout: CallLayout, name: string) => layout.suffix.replaceAll("{{functionName}}", name);

export interface ParsedCall {
  name: string;
  arguments: string;
}

/** Reads a call written under the grammar; undefined when `text` does not start as one. */
export function parseCall(layout: CallLayout, names: readonly string[], text: string): ParsedCall | undefined {
  // Longest first: a name that starts another name must not take its place.
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    const head = layout.prefix + name + layout.paramsPrefix;
    if (!text.startsWith(head)) continue;
    const suffix = suffixFor(layout, name);
    const rest = text.slice(head.length);
    // Without its suffix the call was cut short (max_tokens): its arguments as far as they go.
    return { name, arguments: rest.endsWith(suffix) ? rest.slice(0, rest.length - suffix.length) : rest };
  }
  return undefined;
}

/** What a streamed call adds: its name once known, then pieces of its arguments. */
export interface CallDelta {
  name?: string;
  arguments?: string;
}

/**
 * Splits a call's text as it is generated: nothing until the name is complete, then the arguments
 * as they come, holding back as much as could be the suffix until the end.
 */
export class CallStream {
  private text = "";
  private call: ParsedCall | undefined;
  private sent = 0;

  constructor(private readonly layout: CallLayout, private readonly names: readonly string[]) {}

  push(piece: string): CallDelta | undefined {
    this.text += piece;
    return this.take(false);
  }

  /** The rest, once generation ended. */
  end(): CallDelta | undefined {
    return this.take(true);
  }

  private take(final: boolean): CallDelta | undefined {
    const named = this.call !== undefined;
    this.call ??= this.complete(this.text);
    if (!this.call) return undefined;
    const parsed = parseCall(this.layout, [this.call.name], this.text)!;
    const hold = final ? 0 : suffixFor(this.layout, this.call.name).length;
    const upTo = Math.max(this.sent, parsed.arguments.length - hold);
    const piece = parsed.arguments.slice(this.sent, upTo);
    this.sent = upTo;
    if (named && piece === "") return undefined;
    return named ? { arguments: piece } : { name: this.call.name, arguments: piece };
  }

  /** The call once its name is followed by the params prefix (so no longer name can still match). */
  private complete(text: string): ParsedCall | undefined {
    return parseCall(this.layout, this.names, text);
  }
}
