// `npm start`: Wisp end to end on the embedded default (see scripts/start/start-wisp.ts); tsx
// loads the TypeScript.
import { register } from "tsx/esm/api";

register();
await import("./start/start-wisp.ts");
