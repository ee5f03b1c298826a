/**
 * Prefix of the lines the extension-host test runner prints for the terminal. The workbench
 * forwards every log line of the page through `codeAutomationLog`; only these are test output.
 */
export const testOutputMarker = "[wisp-test] ";
