#!/usr/bin/env bash
# Builds llama.cpp's llama-server from the very source node-llama-cpp ships (its git bundle), once,
# cached outside the repository and keyed by the bundle's commit. Only the server's own code is
# compiled (make's /fast targets skip the dependencies): llama.cpp's libraries (ggml, llama,
# common) are node-llama-cpp's prebuilt binaries of the same release, so both servers run the very
# same kernels. Multimodal input (mtmd) is left out: its functions are stubs (text only).
# Prints the binary's path on stdout. 8-16 minutes on 2 busy cores; the log is <cache>/build.log.
# test/bench/llama-server-build.test.ts builds it into an empty cache (npm run test:bench-models).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bundle="$root/node_modules/node-llama-cpp/llama/gitRelease.bundle"
platform="$(node -p '`${process.platform}-${process.arch}`')"
prebuilt="$root/node_modules/@node-llama-cpp/$platform/bins/$platform"
commit="$(git bundle list-heads "$bundle" | awk '{print substr($1,1,12); exit}')"
cache="${WISP_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wisp-bench}/llama-server-$commit"
binary="$cache/bin/llama-server"
if [[ -x "$binary" ]]; then echo "$binary"; exit 0; fi
[[ -d "$prebuilt" ]] || { echo "no prebuilt node-llama-cpp binaries for this platform under node_modules/@node-llama-cpp" >&2; exit 1; }
mkdir -p "$cache"
# One build at a time: a second caller waits for the first instead of building again.
exec 9>"$cache/.lock"
flock 9
if [[ -x "$binary" ]]; then echo "$binary"; exit 0; fi
{
  [[ -d "$cache/src/.git" ]] || git clone --quiet "$bundle" "$cache/src"
  cmake -S "$cache/src" -B "$cache/build" -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_USE_PREBUILT_UI=OFF \
    -DLLAMA_BUILD_UI=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release
  # The server's sources include the generated ui.h: llama-ui-assets makes it (with its small
  # llama-ui-embed helper, and no web UI: both UI options are off, so it embeds an empty asset table),
  # which llama-ui/fast alone skips.
  nice -n 10 make -C "$cache/build" -j"$(nproc)" llama-ui-assets
  # -k: the shared libraries' own link steps fail without llama.cpp's libraries; the binary is linked below.
  nice -n 10 make -C "$cache/build" -k -j"$(nproc)" cpp-httplib/fast llama-ui/fast server-context/fast llama-server-impl/fast llama-server/fast || true
  server="$cache/build/tools/server"
  mkdir -p "$cache/bin"
  # ggml loads its CPU backend variants from the executable's folder.
  ln -sf "$prebuilt"/*.so "$cache/bin/"
  objects=("$server"/CMakeFiles/*/*.o)
  nm --defined-only "${objects[@]}" | awk 'NF == 3 {print $3}' | sort -u >"$cache/build/defined.txt"
  # The server sets up the helpers at start-up (defaults, logging): every stub returns empty or 0.
  nm -u "${objects[@]}" | awk '$2 ~ /mtmd_/ {print $2}' | sort -u | comm -23 - "$cache/build/defined.txt" | grep -v '^mtmd_[a-z_]*_default$' |
    awk 'BEGIN {print "#include <cstdlib>\n#include \"mtmd.h\"\n#include \"mtmd-helper.h\""; print "extern \"C\" mtmd_helper_init_opt mtmd_helper_init_opt_default() { return {}; }"; print "extern \"C\" mtmd_context_params mtmd_context_params_default() { return {}; }"}
         {printf "extern \"C\" long stub%d() __asm__(\"%s\");\nlong stub%d() { return 0; }\n", NR, $1, NR}' >"$cache/build/mtmd-stubs.cpp"
  g++ -c -I"$cache/src/tools/mtmd" -I"$cache/src/include" -I"$cache/src/ggml/include" -o "$cache/build/mtmd-stubs.o" "$cache/build/mtmd-stubs.cpp"
  g++ -o "$binary.tmp" "$cache/build/mtmd-stubs.o" "$server"/CMakeFiles/llama-server.dir/*.o "$server"/CMakeFiles/llama-server-impl.dir/*.o \
    "$server/libserver-context.a" "$cache/build/tools/ui/libllama-ui.a" "$cache/build/vendor/cpp-httplib/libcpp-httplib.a" \
    "$cache/bin"/libllama-common.so "$cache"/bin/libllama.v*.so "$cache"/bin/libggml.v*.so "$cache/bin/libggml-base.so" \
    -Wl,-rpath,'$ORIGIN' -lpthread
  mv "$binary.tmp" "$binary"
} >"$cache/build.log" 2>&1 || { tail -40 "$cache/build.log" >&2; exit 1; }
echo "$binary"
