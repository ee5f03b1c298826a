// The few non-public parts of node-llama-cpp (pinned in package.json) that the batch decoder
// drives: the native context's batch, decode and sample calls, a native sampler, and each
// sequence's bookkeeping of its evaluated tokens. All access goes through here, and
// `directDecodingAvailable` checks them, so another node-llama-cpp version falls back to its
// public evaluation API instead of failing.
import type { LlamaContext, LlamaContextSequence, LlamaModel, SequenceEvaluateOptions, Token } from "node-llama-cpp";

export interface NativeSampler {
  applyConfig(config: object): void;
  dispose(): void;
}

export interface NativeContext {
  initBatch(size: number): void;
  addToBatch(sequenceId: number, firstTokenSequenceIndex: number, tokens: Uint32Array, logitIndexes: Uint32Array): Uint32Array;
  decodeBatch(): Promise<void>;
  sampleToken(batchLogitIndex: number, sampler: NativeSampler): Promise<number>;
  /** Sets llama.cpp's thread counts for generation and batches (both) of this context. */
  setThreads(threads: number): void;
}

interface SequenceFields {
  _sequenceId: number;
  _nextTokenIndex: number;
  _contextTokens: Token[];
  _tokenPredictor?: unknown;
  _resolveSamplerConfig(options: SequenceEvaluateOptions): object;
}

interface ModelFields {
  _model: unknown;
  _llama: { _bindings: { AddonSampler: new (model: unknown) => NativeSampler } };
}

const fieldsOf = <T>(value: unknown) => value as T;

/** Whether this node-llama-cpp has the internals the batch decoder needs. */
export function directDecodingAvailable(model: LlamaModel, context: LlamaContext, sequence: LlamaContextSequence): boolean {
  const ctx = fieldsOf<{ _ctx?: Partial<NativeContext> }>(context)._ctx;
  const seq = fieldsOf<Partial<SequenceFields>>(sequence);
  const m = fieldsOf<Partial<ModelFields>>(model);
  return (
    typeof ctx?.initBatch === "function" &&
    typeof ctx.addToBatch === "function" &&
    typeof ctx.decodeBatch === "function" &&
    typeof ctx.sampleToken === "function" &&
    typeof ctx.setThreads === "function" &&
    typeof seq._sequenceId === "number" &&
    typeof seq._nextTokenIndex === "number" &&
    Array.isArray(seq._contextTokens) &&
    typeof seq._resolveSamplerConfig === "function" &&
    typeof m._llama?._bindings?.AddonSampler === "function"
  );
}

export function nodeLlamaCppInternals(model: LlamaModel | undefined, context: LlamaContext) {
  return {
    addonContext: fieldsOf<{ _ctx: NativeContext }>(context)._ctx,
    newSampler(): NativeSampler {
      const m = fieldsOf<ModelFields>(model);
      return new m._llama._bindings.AddonSampler(m._model);
    },
    samplerConfig(sequence: LlamaContextSequence, options: SequenceEvaluateOptions): object {
      return fieldsOf<SequenceFields>(sequence)._resolveSamplerConfig(options);
    },
    sequence(sequence: LlamaContextSequence) {
      const s = fieldsOf<SequenceFields>(sequence);
      return {
        id: s._sequenceId,
        nextTokenIndex: s._nextTokenIndex,
        /** Records tokens just added to the native batch as the sequence's own. */
        appended(tokens: readonly Token[]): void {
          for (const token of tokens) s._contextTokens.push(token);
          s._nextTokenIndex += tokens.length;
        },
      };
    },
  };
}
