// decode-step: llama.cpp's decode and a sampling step on node-llama-cpp's own context and sampler,
// called synchronously on the server's thread; a short run of such steps for a sequence that
// generates alone; and log-probabilities of given tokens, for choosing among lines copied from the
// file (line-choice.ts); and, apart from those, handing the allocator's free pages back to the system
// while a model loads (releaseFreeMemory).
//
// Why: node-llama-cpp runs each decode and each sampling step as a job on libuv's thread pool, and
// on small machines the two thread hops per generated token cost about as much as a fifth of the
// decode of a small model. A generation step (a token per sequence) is short, so it runs here
// directly; prompts (long decodes) stay on the pool. What JavaScript still does per step (batch
// set-up, promises, a lock) is then most of what separates the server from llama.cpp's own, so a
// lone sequence generates several tokens per call, for a few milliseconds at most.
//
// How: the objects are node-llama-cpp's (unwrapped from its N-API wrappers), and every llama.cpp and
// node-llama-cpp function is looked up in the copy node-llama-cpp already loaded (dlopen with
// RTLD_NOLOAD by its soname), never a second copy. Built against the installed node-llama-cpp's own
// headers by scripts/build-native.mjs, which records that version: the server uses it only with that
// version (see native-step.ts).
#include <dlfcn.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>

#include "AddonContext.h"
#include "AddonSampler.h"

namespace {

struct Functions {
  int32_t (*decode)(llama_context*, llama_batch);
  float* (*logits)(llama_context*);
  void (*synchronize)(llama_context*);
  void (*rebuildChainIfNeeded)(AddonSampler*);
  void (*sample)(AddonSampler*, llama_context*, int32_t, llama_token_data_array&, bool);
  void (*acceptToken)(AddonSampler*, llama_token);
  const llama_model* (*getModel)(const llama_context*);
  const llama_vocab* (*modelVocab)(const llama_model*);
  bool (*isEog)(const llama_vocab*, llama_token);
  float* (*logitsAt)(llama_context*, int32_t);
  int32_t (*vocabSize)(const llama_vocab*);
};

Functions fns{};
bool bound = false;

template <typename T>
bool lookup(void* handle, const char* name, T& out) {
  out = reinterpret_cast<T>(dlsym(handle, name));
  return out != nullptr;
}

// Binds to the llama-addon.node already in the process; returns an empty string or why not.
std::string bind() {
  void* handle = dlopen("llama-addon.node", RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return "node-llama-cpp's binary is not loaded";
  bool ok = lookup(handle, "llama_decode", fns.decode) && lookup(handle, "llama_get_logits", fns.logits) &&
            lookup(handle, "llama_synchronize", fns.synchronize) &&
            lookup(handle, "_ZN12AddonSampler20rebuildChainIfNeededEv", fns.rebuildChainIfNeeded) &&
            lookup(handle, "_ZN12AddonSampler6sampleEP13llama_contextiR22llama_token_data_arrayb", fns.sample) &&
            lookup(handle, "_ZN12AddonSampler11acceptTokenEi", fns.acceptToken) && lookup(handle, "llama_get_model", fns.getModel) &&
            lookup(handle, "llama_model_get_vocab", fns.modelVocab) && lookup(handle, "llama_vocab_is_eog", fns.isEog) &&
            lookup(handle, "llama_get_logits_ith", fns.logitsAt) && lookup(handle, "llama_vocab_n_tokens", fns.vocabSize);
  // The handle stays open: node-llama-cpp keeps the library loaded for the process's lifetime.
  return ok ? "" : "node-llama-cpp's binary lacks a function this step needs";
}

Napi::Value Bind(const Napi::CallbackInfo& info) {
  std::string problem = bound ? "" : bind();
  bound = problem.empty();
  return Napi::String::New(info.Env(), problem);
}

AddonContext* contextOf(const Napi::CallbackInfo& info) {
  if (!bound) throw Napi::Error::New(info.Env(), "decode-step is not bound to node-llama-cpp");
  AddonContext* context = Napi::ObjectWrap<AddonContext>::Unwrap(info[0].As<Napi::Object>());
  if (context == nullptr || context->disposed || context->ctx == nullptr) throw Napi::Error::New(info.Env(), "the context is disposed");
  return context;
}

Napi::Error decodeError(Napi::Env env, int32_t result) {
  return Napi::Error::New(env, result == 1 ? "could not find a KV slot for the batch (try reducing the size of the batch or increase the context)" : "Eval has failed");
}

// decode(context): the batch node-llama-cpp's context holds (initBatch/addToBatch), decoded.
Napi::Value Decode(const Napi::CallbackInfo& info) {
  AddonContext* context = contextOf(info);
  if (!context->has_batch) throw Napi::Error::New(info.Env(), "the context has no batch");
  int32_t r = fns.decode(context->ctx, context->batch);
  if (r != 0) throw decodeError(info.Env(), r);
  fns.synchronize(context->ctx);
  return info.Env().Undefined();
}

// The next token at a logit index of the last decode, or -1 when nothing can be sampled, as
// node-llama-cpp's sampleToken(batchLogitIndex, sampler) without probabilities.
llama_token sampleAt(AddonContext* context, int32_t index, AddonSampler* sampler) {
  fns.rebuildChainIfNeeded(sampler);
  llama_token_data_array candidates{};
  fns.sample(sampler, context->ctx, index, candidates, false);
  if (candidates.size == 0 || candidates.selected < 0 || candidates.selected >= static_cast<int64_t>(candidates.size)) return -1;
  llama_token token = candidates.data[candidates.selected].id;
  fns.acceptToken(sampler, token);
  return token;
}

AddonSampler* samplerOf(const Napi::CallbackInfo& info, size_t at) {
  AddonSampler* sampler = Napi::ObjectWrap<AddonSampler>::Unwrap(info[at].As<Napi::Object>());
  if (sampler == nullptr) throw Napi::Error::New(info.Env(), "not a sampler");
  return sampler;
}

void checkLogits(const Napi::CallbackInfo& info, AddonContext* context) {
  if (fns.logits(context->ctx) == nullptr) throw Napi::Error::New(info.Env(), "This model does not support token generation");
}

// sample(context, batchLogitIndex, sampler): the next token, or -1 (see sampleAt).
Napi::Value Sample(const Napi::CallbackInfo& info) {
  AddonContext* context = contextOf(info);
  int32_t index = info[1].As<Napi::Number>().Int32Value();
  AddonSampler* sampler = samplerOf(info, 2);
  checkLogits(info, context);
  return Napi::Number::New(info.Env(), sampleAt(context, index, sampler));
}

// generate(context, sequenceId, position, token, sampler, budgetMs, out): decodes `token` at
// `position` of the sequence and samples the next one into out[0]; then goes on with that token,
// while out has room, no end-of-generation token came and one more step fits in budgetMs. Returns
// n, the steps done: n tokens were decoded (token, out[0], ..., out[n - 2]) and out[0..n-1] sampled,
// out[n - 1] being -1 when it could not be sampled. A failed first decode throws (nothing changed);
// a later one ends the run.
Napi::Value Generate(const Napi::CallbackInfo& info) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  AddonContext* context = contextOf(info);
  llama_seq_id sequence = info[1].As<Napi::Number>().Int32Value();
  llama_pos position = info[2].As<Napi::Number>().Int32Value();
  llama_token token = info[3].As<Napi::Number>().Int32Value();
  AddonSampler* sampler = samplerOf(info, 4);
  const double budget = info[5].As<Napi::Number>().DoubleValue();
  Napi::Int32Array out = info[6].As<Napi::Int32Array>();
  const size_t room = out.ElementLength();
  if (room == 0) throw Napi::Error::New(info.Env(), "no room for a sampled token");
  const llama_vocab* vocab = fns.modelVocab(fns.getModel(context->ctx));
  // A one-token batch over these locals: each step changes token and position in place.
  llama_seq_id* sequences[] = {&sequence};
  int32_t sequenceCount = 1;
  int8_t wantLogits = 1;
  llama_batch batch{1, &token, nullptr, &position, &sequenceCount, sequences, &wantLogits};
  size_t n = 0;
  while (n < room) {
    int32_t r = fns.decode(context->ctx, batch);
    if (r != 0) {
      if (n > 0) break;
      throw decodeError(info.Env(), r);
    }
    fns.synchronize(context->ctx);
    if (n == 0) checkLogits(info, context);
    token = sampleAt(context, 0, sampler);
    out[n++] = token;
    if (token < 0 || fns.isEog(vocab, token)) break;
    position++;
    const double spent = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (spent + spent / n > budget) break;
  }
  return Napi::Number::New(info.Env(), static_cast<double>(n));
}

// logprobs(context, batchLogitIndex, tokens, out): out[j] = log P(tokens[j]) at a logit index of the
// last decode, the model's own distribution (softmax of the logits, no sampler). Scoring a few
// candidate lines this way costs a decode of their tokens; node-llama-cpp's probabilities instead
// build a sorted map of the whole vocabulary per position, ten times that.
Napi::Value Logprobs(const Napi::CallbackInfo& info) {
  AddonContext* context = contextOf(info);
  int32_t index = info[1].As<Napi::Number>().Int32Value();
  Napi::Int32Array tokens = info[2].As<Napi::Int32Array>();
  Napi::Float64Array out = info[3].As<Napi::Float64Array>();
  checkLogits(info, context);
  const float* logits = fns.logitsAt(context->ctx, index);
  if (logits == nullptr) throw Napi::Error::New(info.Env(), "no logits at that index");
  const int32_t n = fns.vocabSize(fns.modelVocab(fns.getModel(context->ctx)));
  float top = logits[0];
  for (int32_t t = 1; t < n; t++) top = std::max(top, logits[t]);
  double sum = 0;
  for (int32_t t = 0; t < n; t++) sum += std::exp(static_cast<double>(logits[t] - top));
  const double normalizer = top + std::log(sum);
  for (size_t j = 0; j < tokens.ElementLength() && j < out.ElementLength(); j++) {
    const int32_t token = tokens[j];
    out[j] = token >= 0 && token < n ? logits[token] - normalizer : -INFINITY;
  }
  return info.Env().Undefined();
}

// Loading a model and creating its context free tens of MiB of temporaries (GGUF metadata, the
// vocabulary's build-up, node-llama-cpp's simulated model and context) on its worker threads, whose
// glibc arenas keep freed pages resident: 60-200 MiB of a 0.5B model's peak. malloc_trim gives back
// every arena's free pages. Needs no binding; false where the C library is not glibc.
Napi::Value ReleaseFreeMemory(const Napi::CallbackInfo& info) {
#ifdef __GLIBC__
  malloc_trim(0);
  return Napi::Boolean::New(info.Env(), true);
#else
  return Napi::Boolean::New(info.Env(), false);
#endif
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("releaseFreeMemory", Napi::Function::New(env, ReleaseFreeMemory));
  exports.Set("logprobs", Napi::Function::New(env, Logprobs));
  exports.Set("bind", Napi::Function::New(env, Bind));
  exports.Set("decode", Napi::Function::New(env, Decode));
  exports.Set("sample", Napi::Function::New(env, Sample));
  exports.Set("generate", Napi::Function::New(env, Generate));
  return exports;
}

}  // namespace

NODE_API_MODULE(decode_step, Init)
