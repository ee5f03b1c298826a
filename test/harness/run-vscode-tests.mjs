// `npm run test:vscode`: entry point; tsx loads the TypeScript runner.
import { register } from "tsx/esm/api";

register();
await import("./vscode-tests-runner.ts");
