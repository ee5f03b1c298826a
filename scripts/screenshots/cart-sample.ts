/** The sample workspace's file and the scripted answers each screenshot shows: a small shopping cart. */

export const cartFile = "cart.ts";

const cartHead = `export interface CartItem {
  sku: string;
  name: string;
  unitPrice: number; // in cents
  quantity: number;
}

export interface Cart {
  items: CartItem[];
  discountCode?: string;
}

const discounts: Record<string, number> = { WELCOME10: 0.1, SPRING25: 0.25 };

export function subtotal(cart: Cart): number {
  let total = 0;
  for (const item of cart.items) total += item.unitPrice * item.quantity;
  return total;
}
`;

const cartTotalLines = [
  "export function cartTotal(cart: Cart, taxRate: number): number {",
  '  const discount = discounts[cart.discountCode ?? ""] ?? 0;',
  "  const net = subtotal(cart) * (1 - discount);",
  "  return net + net * taxRate;",
  "}",
];

/** The file the chat and edit screenshots open: `cartTotal` is its last function. */
export const cartText = `${cartHead}\n${cartTotalLines.join("\n")}\n`;

/** How many lines `cartTotal` has (selected from the end of the file upwards). */
export const cartTotalLineCount = cartTotalLines.length;

/**
 * The ghost-text screenshot's file ends with the first line of a function being written; `typed`
 * (Enter) starts its body, where Wisp suggests several lines at once.
 */
export const ghostText = {
  file: `${cartHead}\nexport function addItem(cart: Cart, item: CartItem): Cart {`,
  typed: "\n",
  suggestion: [
    "const existing = cart.items.find((line) => line.sku === item.sku);",
    "  if (existing) existing.quantity += item.quantity;",
    "  else cart.items.push({ ...item });",
    "  return cart;",
    "}",
  ].join("\n"),
};

const roundedTotal = [
  "export function cartTotal(cart: Cart, taxRate: number): number {",
  '  const discount = discounts[cart.discountCode ?? ""] ?? 0;',
  "  const net = Math.round(subtotal(cart) * (1 - discount));",
  "  return net + Math.round(net * taxRate);",
  "}",
].join("\n");

export const chat = {
  question: "Why can the total come out with fractions of a cent?",
  answer: [
    "Prices are whole cents, but two steps multiply them by fractions:",
    "",
    "1. **The discount**: `subtotal(cart) * (1 - discount)` with `SPRING25` turns 1999 into `1499.25`.",
    "2. **The tax**: `net * taxRate` adds another fraction, e.g. `0.0825` of it.",
    "",
    "Round each amount to whole cents where it is computed, so the tax is charged on the rounded net price:",
    "",
    "```ts",
    roundedTotal,
    "```",
    "",
    "`Math.round` rounds half a cent up, which is what most receipts do.",
  ].join("\n"),
};

/** Two changes with a line between them: the review shows Accept and Reject above each. */
export const edit = {
  instruction: "accept lower-case discount codes and round the total to whole cents",
  answer: [
    "```ts",
    "export function cartTotal(cart: Cart, taxRate: number): number {",
    '  const discount = discounts[cart.discountCode?.toUpperCase() ?? ""] ?? 0;',
    "  const net = subtotal(cart) * (1 - discount);",
    "  return Math.round(net * (1 + taxRate));",
    "}",
    "```",
    "",
  ].join("\n"),
};
