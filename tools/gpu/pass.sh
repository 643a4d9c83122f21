#!/usr/bin/env bash
# The whole GPU pass, on the GPU test machine, from the project root, after `source .gpu/on-device.sh`.
# Writes logs and PNGs to $OUT (at most 8 files come back).
set -uo pipefail
out=${OUT:-/tmp/threadlab-gpu}
mkdir -p "$out"
bin=.gpu/bin
log="$out/gpu-pass.log"
{
  echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
  echo "== threadlab info"
  $bin/threadlab info
  echo "== GPU tests"
  $bin/threadlab_gpu_tests --gtest_brief=1
  echo "gpu tests exit: $?"
  echo "== GL tests (EGL on the GPU)"
  $bin/threadlab_gl_tests --gtest_brief=1
  echo "gl tests exit: $?"
  for tool in memcheck racecheck synccheck; do
    echo "== compute-sanitizer --tool $tool"
    compute-sanitizer --tool "$tool" --error-exitcode 3 $bin/threadlab_gpu_tests --gtest_brief=1 \
      --gtest_filter='VectorAddGpu.*:TraceToGlGpu.*' 2>&1 | tail -n 6
    echo "compute-sanitizer $tool exit: ${PIPESTATUS[0]}"
  done
  echo "== invalid launch, as the article tries it"
  $bin/threadlab run --single-block --n 500000
  echo "exit: $?"
  echo "== renders through interop"
  $bin/threadlab render --n 2^20 --block 256 --color-by sm --out "$out/render-sm.png" --width 1200 --height 700
  $bin/threadlab render --n 1000 --grid 3 --block 256 --color-by writes --out "$out/render-writes.png" --width 1200 --height 500
  echo "== headless app"
  $bin/threadlab gui --headless --frames 3 --width 1600 --height 1000 --screenshot "$out/gui-headless-gpu.png"
  echo "exit: $?"
  echo "== bench"
  $bin/threadlab bench --sizes 2^10..2^28 --format table
  $bin/threadlab bench --sizes 2^10..2^28 --format json > "$out/bench.json"
} 2>&1 | tee "$log"
