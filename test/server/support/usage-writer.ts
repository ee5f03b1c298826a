// Records usage events into DATA as fast as it can (tiny segments, so compaction runs often),
// printing how many are safely written after each batch, until it is killed.
import { UsageLog } from "../../../src/server/usage/usage-log";

const [dataDir, batchText] = process.argv.slice(2);
const batch = Number(batchText);
const usage = await UsageLog.open(dataDir!, { segmentBytes: 2048 });
let written = 0;
for (;;) {
  for (let i = 0; i < batch; i++) {
    usage.record({ t: Date.now(), key: "key_crash", model: "wisp-tiny", status: 200, prompt_tokens: 3, completion_tokens: 2, images: 0 });
  }
  await usage.flush();
  written += batch;
  process.stdout.write(`written ${written}\n`);
}
