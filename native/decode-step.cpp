// decode-step: llama.cpp's decode and a sampling step on node-llama-cpp's own context and sampler,
// called synchronously on the server's thread.
//
// Why: node-llama-cpp runs each decode and each sampling step as a job on libuv's thread pool, and
// on small machines the two thread hops per generated token cost about as much as a fifth of the
// decode of a small model. A generation step (a token per sequence) is short, so it runs here
// directly; prompts (long decodes) stay on the pool.
//
// How: the objects are node-llama-cpp's (unwrapped from its N-API wrappers), and every llama.cpp and
// node-llama-cpp function is looked up in the copy node-llama-cpp already loaded (dlopen with
// RTLD_NOLOAD by its soname), never a second copy. Built against the installed node-llama-cpp's own
// headers by scripts/build-native.mjs, which records that version: the server uses it only with that
// version (see native-step.ts).
#include <dlfcn.h>

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
            lookup(handle, "_ZN12AddonSampler11acceptTokenEi", fns.acceptToken);
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

// decode(context): the batch node-llama-cpp's context holds (initBatch/addToBatch), decoded.
Napi::Value Decode(const Napi::CallbackInfo& info) {
  AddonContext* context = contextOf(info);
  if (!context->has_batch) throw Napi::Error::New(info.Env(), "the context has no batch");
  int32_t r = fns.decode(context->ctx, context->batch);
  if (r == 1) throw Napi::Error::New(info.Env(), "could not find a KV slot for the batch (try reducing the size of the batch or increase the context)");
  if (r != 0) throw Napi::Error::New(info.Env(), "Eval has failed");
  fns.synchronize(context->ctx);
  return info.Env().Undefined();
}

// sample(context, batchLogitIndex, sampler): the next token, or -1 when nothing can be sampled,
// as node-llama-cpp's sampleToken(batchLogitIndex, sampler) without probabilities.
Napi::Value Sample(const Napi::CallbackInfo& info) {
  AddonContext* context = contextOf(info);
  int32_t index = info[1].As<Napi::Number>().Int32Value();
  AddonSampler* sampler = Napi::ObjectWrap<AddonSampler>::Unwrap(info[2].As<Napi::Object>());
  if (sampler == nullptr) throw Napi::Error::New(info.Env(), "not a sampler");
  if (fns.logits(context->ctx) == nullptr) throw Napi::Error::New(info.Env(), "This model does not support token generation");
  fns.rebuildChainIfNeeded(sampler);
  llama_token_data_array candidates{};
  fns.sample(sampler, context->ctx, index, candidates, false);
  if (candidates.size == 0 || candidates.selected < 0 || candidates.selected >= static_cast<int64_t>(candidates.size)) {
    return Napi::Number::New(info.Env(), -1);
  }
  llama_token token = candidates.data[candidates.selected].id;
  fns.acceptToken(sampler, token);
  return Napi::Number::New(info.Env(), token);
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("bind", Napi::Function::New(env, Bind));
  exports.Set("decode", Napi::Function::New(env, Decode));
  exports.Set("sample", Napi::Function::New(env, Sample));
  return exports;
}

}  // namespace

NODE_API_MODULE(decode_step, Init)
