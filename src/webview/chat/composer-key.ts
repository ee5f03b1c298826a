/** What a key pressed in the prompt box does, decided apart from the DOM so it can be tested. */
export type ComposerKey =
  /** An input method is composing (Japanese, Chinese, Korean…): the key is the IME's, not the menus' or the box's. */
  | "ime"
  | "send"
  | "stop"
  /** Anything else: the open @ or / menu may take it, else the text area. */
  | "other";

export interface KeyPress {
  readonly key: string;
  readonly shiftKey: boolean;
  readonly isComposing: boolean;
  /** 229 marks a key the IME processes; some engines send the committing Enter so with isComposing false. */
  readonly keyCode: number;
}

export function composerKey(event: KeyPress, streaming: boolean): ComposerKey {
  if (event.isComposing || event.keyCode === 229) return "ime";
  if (event.key === "Enter" && !event.shiftKey) return "send";
  if (event.key === "Escape" && streaming) return "stop";
  return "other";
}
