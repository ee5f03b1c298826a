// Preloaded into the server by the load test (NODE_OPTIONS=--require): on SIGUSR2 it runs a full
// garbage collection and writes the memory left after it, so a leak is told from garbage V8 has
// not yet collected. The server's own code is untouched.
const { renameSync, writeFileSync } = require("node:fs");
const v8 = require("node:v8");
const vm = require("node:vm");

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
let count = 0;
process.on("SIGUSR2", () => {
  gc();
  const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
  const file = process.env.WISP_GC_PROBE_FILE;
  // Whole or not at all: the test polls the file.
  writeFileSync(`${file}.tmp`, JSON.stringify({ count: ++count, heapUsed, rss, external, arrayBuffers }));
  renameSync(`${file}.tmp`, file);
});
