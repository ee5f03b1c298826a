import type { ImageExtension } from "../api/images";

const maxSlugLength = 48;

/** Lower-case words of the prompt joined by dashes, ASCII only, cut at a word boundary. */
export function promptSlug(prompt: string): string {
  const words = prompt
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
  let slug = "";
  for (const word of words) {
    const next = slug === "" ? word : `${slug}-${word}`;
    if (next.length > maxSlugLength) {
      if (slug === "") slug = word.slice(0, maxSlugLength);
      break;
    }
    slug = next;
  }
  return slug === "" ? "image" : slug;
}

/** `20250131-174502`, in the local time the date is given in. */
export function timeStamp(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}${two(date.getMonth() + 1)}${two(date.getDate())}-` +
    `${two(date.getHours())}${two(date.getMinutes())}${two(date.getSeconds())}`
  );
}

/**
 * The file name of a generated image: the prompt's words and the time, e.g.
 * `a-lighthouse-at-dusk-20250131-174502.png`. `attempt` > 1 adds a counter, for a name that is
 * already taken.
 */
export function imageFileName(prompt: string, date: Date, extension: ImageExtension, attempt = 1): string {
  const counter = attempt > 1 ? `-${attempt}` : "";
  return `${promptSlug(prompt)}-${timeStamp(date)}${counter}.${extension}`;
}
