/**
 * Terminal text with what looks like a secret masked before it leaves the machine: assignments
 * and options of sensitive names (`API_TOKEN=…`, `"password": "…"`, `--token …`), credentials in
 * URLs and headers, private key blocks, and the shapes of well-known tokens and keys.
 */
import { redact, wispSecret } from "../log/redact";

export const mask = "[masked]";

/** A private key block's first and last lines: maskers that go line by line track the lines between. */
export const keyBegin = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
export const keyEnd = /-----END [A-Z ]*PRIVATE KEY-----/;

/**
 * Names whose value is a secret: `GITHUB_TOKEN`, `db_password`, `AWS_SECRET_ACCESS_KEY`, `apiKey`;
 * the short forms .env files use (`DB_PASS`, `MYSQL_PWD`, `REDIS_AUTH`, .npmrc's `_auth`), with
 * their underscore and at the name's end (`PWD` alone is the working folder, `pass` a test count,
 * `SSH_AUTH_SOCK` and `FIREBASE_AUTH_DOMAIN` no secrets), and `MASTER_KEY`,
 * `ENCRYPTION_KEY`, `SIGNING_KEY`, `APP_KEY`. At most 64 characters each side of the word: unbounded,
 * a long run of name characters (`--a--a…`) made each match attempt scan the rest of the text.
 */
const sensitiveName = String.raw`[A-Za-z0-9_.-]{0,64}(?:TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CLIENT[_-]?SECRET|CREDENTIALS?|SESSION[_-]?ID|COOKIE|DSN|(?:MASTER|ENCRYPTION|SIGNING|APP)[_-]?KEY(?![A-Za-z])|_PAT(?![A-Za-z])|_(?:PASS|PWD|AUTH)(?![A-Za-z0-9_]))[A-Za-z0-9_.-]{0,64}`;

/** -----BEGIN … PRIVATE KEY----- through its END line (or the end of the text, when cut). */
const keyBlock: [RegExp, string] = [new RegExp(`${keyBegin.source}[\\s\\S]*?(?:${keyEnd.source}|$)`, "g"), mask];
/** https://user:password@host */
const urlCredentials: [RegExp, string] = [/(\b[a-z][a-z0-9+.-]{0,31}:\/\/[^/\s:@]+:)[^@\s/]+(@)/gi, `$1${mask}$2`];
/** Token shapes: GitHub, GitLab, Slack, AWS access key ids, Google API keys, Stripe, npm, Hugging Face, JWTs. */
const tokenShapes: [RegExp, string][] = [
  [/\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{10,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,})\b/g, mask],
  [/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, mask],
];

const rules: readonly [RegExp, string][] = [
  keyBlock,
  // NAME=value, export NAME="value", NAME: value (YAML, .env, logs), "name": "value" (JSON), and
  // after .npmrc's registry (//registry.npmjs.org/:_authToken=…).
  [new RegExp(String.raw`((?:^|[\s;{,(:])["']?${sensitiveName}["']?\s*(?:=|:)\s*)("[^"\n]*"|'[^'\n]*'|[^\s"',;}]+)`, "gim"), `$1${mask}`],
  // A URL's query: …?user=bob&password=…&next=/ (the value ends at the next parameter).
  [new RegExp(String.raw`([?&]${sensitiveName}=)[^\s"'&#]+`, "gi"), `$1${mask}`],
  // --token value, --password=value, -p… is too common a flag to judge.
  [new RegExp(String.raw`(--${sensitiveName}(?:=|\s+))("[^"\n]*"|'[^'\n]*'|\S+)`, "gi"), `$1${mask}`],
  // Authorization headers: Bearer, Basic, token.
  [/((?:authorization|proxy-authorization)\s*:\s*(?:bearer|basic|token)?\s*)[^\s"']+/gi, `$1${mask}`],
  // curl -u user:password, --user=user:password
  [/((?:^|\s)(?:-u\s*|--user[=\s]\s*)["']?[^\s:"']+:)[^\s"']+/g, `$1${mask}`],
  urlCredentials,
  ...tokenShapes,
];

/**
 * What in source code is a secret for certain: a string literal assigned to a sensitive name, the
 * token shapes, key blocks and URL credentials. Not what follows such a name unquoted, which in
 * code is an expression (`token: string`, `apiKey = process.env.API_KEY`, `token === undefined`).
 */
const codeRules: readonly [RegExp, string][] = [
  keyBlock,
  // apiKey = "…", "password": '…', secret: `…` (a template without substitutions), 4 characters or more.
  [new RegExp(String.raw`((?:^|[^A-Za-z0-9_.-])["']?${sensitiveName}["']?\s*(?:=|:|:=|=>)\s*)("[^"\n]{4,}"|'[^'\n]{4,}'|\x60[^\x60$\n]{4,}\x60)`, "gim"), `$1${mask}`],
  urlCredentials,
  // "Bearer …" written out in a literal (not `Bearer ${token}`).
  [/(["'\x60](?:bearer|basic|token)\s+)[^\s"'\x60$]{8,}/gi, `$1${mask}`],
  ...tokenShapes,
  // OpenAI-style and this project's keys: with a digit, which an identifier such as sk_learn_tools lacks.
  [/\b(?:sk|wsk)-(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{16,}/g, mask],
  [wispSecret, mask],
];

/** `text` with every secret-looking value replaced by [masked]. */
export function maskSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  // The log's own rules (API key shapes such as sk-…, the local server's keys, login links).
  return redact(out).replaceAll("[redacted]", mask);
}

/** Source code with its literal secrets masked (see codeRules): the code around them stays readable. */
export function maskCodeSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of codeRules) out = out.replace(pattern, replacement);
  return out;
}
