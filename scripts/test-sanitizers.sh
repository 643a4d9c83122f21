#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer over the host code that every lesson shares: the
# core (models, parsers, plot, sweeps), the CPU emulator with its fibers, the lessons through the
# emulator, and the Lab's emulator path. Built without CUDA in its own directory (build-asan);
# nvcc's device code is checked by compute-sanitizer on the GPU instead (tools/gpu/pass.sh). Any
# finding fails the run.
#
# Environment: THREADLAB_ASAN_BUILD_DIR (default: build-asan), THREADLAB_JOBS (default: nproc).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

build_dir="${THREADLAB_ASAN_BUILD_DIR:-build-asan}"
jobs="${THREADLAB_JOBS:-$(nproc)}"
targets=(threadlab_core_tests threadlab_plot_sweep_tests threadlab_emulator_tests
  threadlab_lab_emulator_tests)

scripts/install-deps.sh
printf 'sanitizers: configuring %s (address, undefined; no CUDA)\n' "${build_dir}"
cmake -S . -B "${build_dir}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTHREADLAB_CUDA=OFF \
  -DTHREADLAB_SANITIZE=address,undefined >/dev/null
cmake --build "${build_dir}" --parallel "${jobs}" --target "${targets[@]}"

# The emulator switches fibers with Boost.Context and tells ASan about every switch
# (__sanitizer_start/finish_switch_fiber); halt_on_error makes any finding fatal. The Lab's
# emulator tests load learners' kernels built by the system compiler without sanitizers: the
# executor that runs them is checked, their own code is not.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
status=0
for target in "${targets[@]}"; do
  binary="$(find "${build_dir}/tests" -type f -name "${target}" -perm -u+x | head -n 1)"
  if [[ -z "${binary}" ]]; then
    printf 'sanitizers: %s was not built\n' "${target}" >&2
    exit 1
  fi
  printf 'sanitizers: %s\n' "${target}"
  options="${ASAN_OPTIONS}"
  if [[ "${target}" == threadlab_lab_emulator_tests ]]; then
    # Learners' kernel objects keep their race check's per-thread shadows (calloc'd inside the
    # object) for the life of the process that loads them, the Lab's short-lived worker; after
    # dlclose LeakSanitizer sees them as leaks from an unknown module and cannot be told which.
    # Memory errors are still fatal here; leaks of the executor itself are caught by the
    # emulator tests above.
    options="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}"
  fi
  if [[ "${target}" == threadlab_emulator_tests ]]; then
    # Known issue (2026-11-25): after a grid runs its fibers on the calling thread (one worker:
    # the mapping probes, GridExecutor.SingleWorkerGivesTheSameResult), AddressSanitizer's view of
    # that thread's own stack is left stale, and a later test in the same process is reported as
    # a stack-buffer-overflow in ordinary code (every test passes alone and in any process of its
    # own). Until the executor's fiber annotations on the caller's stack are fixed, each test runs
    # in its own process here, so every test is still checked, only not after another one.
    while IFS= read -r test_name; do
      if ! ASAN_OPTIONS="${options}" "${binary}" --gtest_brief=1 \
          --gtest_filter="${test_name}" >"${build_dir}/last-test.log" 2>&1; then
        cat "${build_dir}/last-test.log"
        status=1
      fi
    done < <("${binary}" --gtest_list_tests |
             awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}')
  elif ! ASAN_OPTIONS="${options}" "${binary}" --gtest_brief=1; then
    status=1
  fi
done
if [[ ${status} -ne 0 ]]; then
  printf 'sanitizers: FAILED\n' >&2
else
  printf 'sanitizers: every test passed under AddressSanitizer and UndefinedBehaviorSanitizer\n'
fi
exit "${status}"
