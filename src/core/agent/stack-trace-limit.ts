/**
 * Error.stackTraceLimit as it was before the shell parser loaded: the parser (Go compiled to
 * JavaScript by GopherJS) sets it to Infinity for the whole process when it loads, and
 * shell-syntax.ts puts it back. Imported first there, so this module is evaluated before the parser.
 */
export const stackTraceLimitBefore = Error.stackTraceLimit;
