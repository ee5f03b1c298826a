/**
 * Says what an HTML page is, for a body that should have been the API's JSON or event stream: a
 * proxy's or gateway's error page (nginx's "502 Bad Gateway"), a sign-in or captive portal.
 * Undefined when the text is not an HTML page. The markup itself is never shown.
 */
export function describeHtmlPage(text: string): string | undefined {
  if (!/^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html|head|body)\b/i.test(text)) return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, " ").trim();
  return `an HTML page${title ? ` titled "${title}"` : ""}, not the API's answer (a proxy, gateway or sign-in page is in the way)`;
}
