# tools.sh - sourced by the bench/emu scripts: the tools they all need ---------------#
#
# require_tools NAME EXGC EMU: sets nvcc (PATH, else /usr/local/cuda/bin/nvcc) and exits 2,
# naming the script NAME, when exgc, exg-emu or nvcc is missing.
require_tools() {
  local name=$1 tool
  nvcc="$(command -v nvcc || true)"
  [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
  for tool in "$2" "$3" "$nvcc"; do
    [ -n "$tool" ] && [ -x "$tool" ] && continue
    echo "$name: missing tool '${tool:-nvcc}' (build exgc and exg-emu; nvcc 12.8+)" >&2
    exit 2
  done
}
