// Scores a generated picture of one shape on a background, as a person would check it: the
// background's colour and the shape's colour (mean colour of each region, nearest named colour of
// scripts/train/image/shapes.json) and which shape it is (the nearest of the training generator's
// shapes, drawn here with the same geometry as shapes.py). Shared by bench/image-prompts.bench.ts
// and the server test of the trained default model.
import spec from "../../scripts/train/image/shapes.json";

export interface Seen {
  background: string;
  /** "none" when no region stands out from the background. */
  colour: string;
  shape: string;
}

/** A region stands out when its colour is this far (RGB distance) from the background's. */
const CONTRAST = 40;
const GRID = 24;
const BORDER = 4;

/** What the picture (interleaved RGB bytes) shows. */
export function scorePicture(pixels: Uint8Array, width: number, height: number): Seen {
  const background = fitBackground(pixels, width, height);
  const mask = new Uint8Array(width * height);
  const sums = { shape: [0, 0, 0, 0], background: [0, 0, 0, 0] };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const expected = background(x / width, y / height);
      const rgb = [pixels[3 * i]!, pixels[3 * i + 1]!, pixels[3 * i + 2]!];
      mask[i] = Math.hypot(rgb[0]! - expected[0]!, rgb[1]! - expected[1]!, rgb[2]! - expected[2]!) > CONTRAST ? 1 : 0;
    }
  }
  // The colours from inside each region: the pixels along the edge blend the two.
  for (let y = 2; y < height - 2; y++) {
    for (let x = 2; x < width - 2; x++) {
      const i = y * width + x;
      const around = mask[i - 2]! + mask[i + 2]! + mask[i - 2 * width]! + mask[i + 2 * width]!;
      const sum = mask[i] && around === 4 ? sums.shape : !mask[i] && around === 0 ? sums.background : undefined;
      if (!sum) continue;
      for (let c = 0; c < 3; c++) sum[c] += pixels[3 * i + c]!;
      sum[3]!++;
    }
  }
  const shapeSeen = sums.shape[3]! >= width * height * 0.005;
  return {
    background: nearestColour(sums.background),
    colour: shapeSeen ? nearestColour(sums.shape) : "none",
    shape: shapeSeen ? nearestShape(mask, width, height) : "none",
  };
}

/** The background as a plane per channel (a plain one or a linear gradient), fitted on the border. */
function fitBackground(pixels: Uint8Array, width: number, height: number): (u: number, v: number) => number[] {
  // Least squares of value = a + b*u + c*v over the border pixels, per channel.
  const normal = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const rhs = [0, 0, 0].map(() => [0, 0, 0]);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (x >= BORDER && x < width - BORDER && y >= BORDER && y < height - BORDER) continue;
      const basis = [1, x / width, y / height];
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) normal[3 * r + c]! += basis[r]! * basis[c]!;
        for (let ch = 0; ch < 3; ch++) rhs[ch]![r]! += basis[r]! * pixels[3 * (y * width + x) + ch]!;
      }
    }
  }
  const planes = rhs.map((b) => solve3(normal, b));
  return (u, v) => planes.map(([a, b, c]) => a! + b! * u + c! * v);
}

function solve3(m: number[], b: number[]): number[] {
  const det = (a: number[]) => a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) - a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) + a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
  const whole = det(m);
  return [0, 1, 2].map((col) => det(m.map((value, i) => (i % 3 === col ? b[Math.floor(i / 3)]! : value))) / whole);
}

const COLOURS = Object.entries(spec.colours);

function nearestColour([r, g, b, count]: number[]): string {
  if (!count) return "none";
  const mean = [r! / count, g! / count, b! / count];
  return COLOURS.reduce((best, [name, rgb]) => (distance(mean, rgb) < distance(mean, spec.colours[best as keyof typeof spec.colours]) ? name : best), COLOURS[0]![0]);
}

function distance(a: number[], b: number[]): number {
  return Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);
}

/** The shape whose outline, stretched over its bounding box, overlaps the region's most. */
function nearestShape(mask: Uint8Array, width: number, height: number): string {
  const seen = normalized((x, y) => mask[y * width + x] === 1, width, height);
  let best = { shape: "none", overlap: -1 };
  for (const [shape, template] of TEMPLATES) {
    let both = 0;
    let either = 0;
    for (let i = 0; i < seen.length; i++) {
      both += seen[i]! & template[i]!;
      either += seen[i]! | template[i]!;
    }
    if (both / either > best.overlap) best = { shape, overlap: both / either };
  }
  return best.shape;
}

/** A mask resampled to GRID x GRID over its bounding box (stray pixels outside 1%-99% left out). */
function normalized(inside: (x: number, y: number) => boolean, width: number, height: number): Uint8Array {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (inside(x, y)) xs.push(x), ys.push(y);
  const span = (values: number[]) => {
    values.sort((a, b) => a - b);
    return [values[Math.floor(values.length * 0.01)]!, values[Math.ceil(values.length * 0.99) - 1]!];
  };
  const [x0, x1] = span(xs);
  const [y0, y1] = span(ys);
  const grid = new Uint8Array(GRID * GRID);
  for (let gy = 0; gy < GRID; gy++) {
    for (let gx = 0; gx < GRID; gx++) {
      const x = Math.round(x0! + ((gx + 0.5) / GRID) * (x1! - x0!));
      const y = Math.round(y0! + ((gy + 0.5) / GRID) * (y1! - y0!));
      grid[gy * GRID + gx] = inside(x, y) ? 1 : 0;
    }
  }
  return grid;
}

/** shapes.py's shape_mask, for a half-size of 1 around the origin. */
function insideShape(shape: string, dx: number, dy: number): boolean {
  const d = Math.hypot(dx, dy);
  switch (shape) {
    case "circle":
      return d <= 1;
    case "square":
      return Math.abs(dx) <= 0.85 && Math.abs(dy) <= 0.85;
    case "triangle":
      return dy <= 0.8 && Math.abs(dx) <= (dy + 1) * 0.58;
    case "ring":
      return d <= 1 && d >= 0.6;
    case "stripes":
      return Math.abs(dx) <= 1 && Math.abs(dy) < 1 && Math.floor(((dy + 1) / 2) * 5) % 2 === 0;
    case "star": {
      const sector = (2 * Math.PI) / 5;
      const angle = ((((Math.atan2(dx, -dy) % sector) + sector) % sector) / sector);
      return d <= 0.42 + 0.58 * Math.abs(1 - 2 * angle);
    }
    default:
      throw new Error(`unknown shape ${shape}`);
  }
}

const TEMPLATE_SIZE = 192;
const TEMPLATES: [string, Uint8Array][] = spec.shapes.map((shape) => [
  shape,
  normalized((x, y) => insideShape(shape, ((x + 0.5) / TEMPLATE_SIZE) * 2.4 - 1.2, ((y + 0.5) / TEMPLATE_SIZE) * 2.4 - 1.2), TEMPLATE_SIZE, TEMPLATE_SIZE),
]);
