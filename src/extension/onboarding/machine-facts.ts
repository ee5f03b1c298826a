import { execFile } from "node:child_process";
import { availableParallelism, totalmem } from "node:os";
import type { GpuFact, MachineFacts } from "../../core/onboarding/recommend-model";

const probeTimeoutMs = 3000;

/**
 * This machine's memory and cores (Node's `os`), and its GPU: Apple silicon from the platform (the
 * bundled server runs llama.cpp's Metal build there), else NVIDIA's if `nvidia-smi` answers within
 * a few seconds. Nothing heavier is loaded in the extension host (no GPU library, no driver probe).
 */
export async function readMachineFacts(): Promise<MachineFacts> {
  const gpu: GpuFact = process.platform === "darwin" && process.arch === "arm64" ? { kind: "apple-silicon" } : await nvidiaGpu();
  return { memoryBytes: totalmem(), cores: availableParallelism(), gpu };
}

function nvidiaGpu(): Promise<GpuFact> {
  return new Promise((resolve) => {
    execFile("nvidia-smi", ["--query-gpu=name,memory.total", "--format=csv,noheader,nounits"], { timeout: probeTimeoutMs, windowsHide: true }, (error, stdout) => {
      const [name, mib] = (error ? "" : stdout).split("\n")[0]!.split(",").map((s) => s.trim());
      if (!name) return resolve({ kind: "none" });
      const memory = Number(mib);
      resolve({ kind: "nvidia", name, ...(Number.isFinite(memory) && memory > 0 ? { memoryBytes: memory * 2 ** 20 } : {}) });
    });
  });
}
