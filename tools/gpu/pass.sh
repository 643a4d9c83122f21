#!/usr/bin/env bash
# The whole GPU pass, on the GPU test machine, from the project root, after `source .gpu/on-device.sh`.
# Writes logs and PNGs to $OUT (at most 8 files come back).
set -uo pipefail
out=${OUT:-/tmp/threadlab-gpu}
mkdir -p "$out"
bin=.gpu/bin
# The device image has no font packages: use the ones staged with the binaries.
export THREADLAB_FONT_DIR=$PWD/.gpu/fonts
# cuBLAS comes from the device's CUDA toolkit (ThreadLab loads it at run time).
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
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
    # The tests provoke CUDA API errors on purpose (refused launches, an oversized cudaMalloc), so
    # API errors are not counted; memory, race and barrier errors are.
    compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 3 $bin/threadlab_gpu_tests --gtest_brief=1 \
      2>&1 | tail -n 8
    echo "compute-sanitizer $tool exit: ${PIPESTATUS[0]}"
  done
  echo "== invalid launch, as the article tries it"
  $bin/threadlab run --single-block --n 500000
  echo "exit: $?"
  echo "== renders through interop"
  for lesson in "thread-hierarchy --n 5000 --grid 8 --block 128 --grid_stride 1 --color-by sm" \
      "2d-blocks --rows 96 --cols 160 --block 16,16 --mapping x_to_row --color-by block" \
      "matmul --m 96 --n 160 --k 64 --kernel tiled --tile 16 --color-by sm" \
      "dense-layer --batch 64 --inputs 256 --neurons 160 --color-by warp"; do
    name=${lesson%% *}
    # shellcheck disable=SC2086
    $bin/threadlab render --lesson $lesson --out "$out/render-$name.png" --width 1000 --height 600
  done
  echo "== headless app, after a sweep"
  $bin/threadlab gui --headless --frames 3 --width 1600 --height 1000 --action 'threadlab:set?n=2^24&block=256&launch' \
    --action 'threadlab:set?sweep' --screenshot "$out/gui-headless-gpu.png"
  echo "exit: $?"
  echo "== bench"
  $bin/threadlab bench --sizes 2^10..2^28 --format table
  $bin/threadlab bench --sizes 2^10..2^28 --format json > "$out/bench.json"
  echo "== bench, copy path vs emulator sanity: N = 2^20 on the emulator"
  $bin/threadlab run --n 2^20 --backend emulator --check --repeats 3
} 2>&1 | tee "$log"
