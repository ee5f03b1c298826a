/**
 * Keeping the keyboard focus across redraws. A turn's buttons and step rows are built again when
 * its state changes (each output chunk of a running command): the focused one is found again in
 * the new nodes by what it is, so a keyboard user's place does not fall back to the page's start.
 */

/** What names the focused element within `root` (its step, tag and label); undefined when the focus is elsewhere. */
export function focusKey(root: Element): string | undefined {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || active === root || !root.contains(active)) return undefined;
  return keyOf(active);
}

/** Focuses the element of `root` that `key` names, if there is one; true when it did. */
export function refocus(root: Element, key: string): boolean {
  const match = [...root.querySelectorAll<HTMLElement>("button, summary, a, select, [tabindex]")].find((node) => keyOf(node) === key);
  match?.focus();
  return match !== undefined;
}

function keyOf(node: HTMLElement): string {
  return JSON.stringify([node.closest<HTMLElement>("[data-step]")?.dataset.step ?? "", node.tagName, node.getAttribute("aria-label") ?? ""]);
}
