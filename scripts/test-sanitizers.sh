#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer over the host code that every lesson shares: the
# core (models, parsers, plot, sweeps), the CPU emulator with its fibers, the lessons through the
# emulator, and the Lab's emulator path. Built by clang without CUDA in its own directory
# (build-sanitize), which also carries libFuzzer's coverage instrumentation, so that scripts/fuzz.sh
# builds its targets in the same tree and the core is compiled once for both. nvcc's device code is
# checked by compute-sanitizer on the GPU instead (tools/gpu/pass.sh). Any finding fails the run.
#
# Each suite runs whole in one process, which is stricter than one process a test: state one test
# leaves behind (a stale fiber stack, a leak) is caught in the next. Two suites run at a time.
#
# Environment: THREADLAB_SANITIZE_BUILD_DIR (default: build-sanitize), THREADLAB_JOBS (default:
# nproc), THREADLAB_SANITIZE_BUILD_ONLY=1 (build, run nothing: scripts/fuzz.sh builds this way).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

build_dir="${THREADLAB_SANITIZE_BUILD_DIR:-build-sanitize}"
jobs="${THREADLAB_JOBS:-$(nproc)}"
# The longest first, so that the last one does not run alone.
suites=(threadlab_emulator_tests threadlab_lab_emulator_tests threadlab_core_tests
  threadlab_plot_sweep_tests)
# The same list as scripts/fuzz.sh runs: a target missing here is never built, and fuzz.sh fails.
fuzz_targets=(fuzz_arguments fuzz_command_line fuzz_launch_config fuzz_lesson_text fuzz_settings_files
  fuzz_demo_script fuzz_class_messages)

scripts/install-deps.sh
printf 'sanitizers: configuring %s (clang; address, undefined, fuzzer coverage; no CUDA)\n' \
  "${build_dir}"
cmake -S . -B "${build_dir}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTHREADLAB_CUDA=OFF \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTHREADLAB_FUZZ=ON \
  -DTHREADLAB_SANITIZE=address,undefined,fuzzer-no-link >/dev/null
cmake --build "${build_dir}" --parallel "${jobs}" --target "${suites[@]}" "${fuzz_targets[@]}"
if [[ "${THREADLAB_SANITIZE_BUILD_ONLY:-0}" == 1 ]]; then
  exit 0
fi

# The emulator switches fibers with Boost.Context and tells ASan about every switch
# (__sanitizer_start/finish_switch_fiber); halt_on_error makes any finding fatal. The Lab's
# emulator tests load learners' kernels built by the system compiler without sanitizers: the
# executor that runs them is checked, their own code is not.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

run_suite() {
  local suite="$1" binary options log
  binary="$(find "${build_dir}/tests" -type f -name "${suite}" -perm -u+x | head -n 1)"
  if [[ -z "${binary}" ]]; then
    printf 'sanitizers: %s was not built\n' "${suite}" >&2
    return 1
  fi
  options="${ASAN_OPTIONS}"
  if [[ "${suite}" == threadlab_lab_emulator_tests ]]; then
    # Learners' kernel objects keep their race check's per-thread shadows (calloc'd inside the
    # object) for the life of the process that loads them, the Lab's short-lived worker; after
    # dlclose LeakSanitizer sees them as leaks from an unknown module and cannot be told which.
    # Memory errors are still fatal here; leaks of the executor itself are caught by the
    # emulator tests.
    options="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}"
  fi
  log="$(realpath -m "${build_dir}")/${suite}.log"
  local start=${SECONDS}
  if ASAN_OPTIONS="${options}" "${binary}" --gtest_brief=1 >"${log}" 2>&1; then
    printf 'sanitizers: %s passed (%d s)\n' "${suite}" $((SECONDS - start))
  else
    tail -n 80 "${log}"
    printf 'sanitizers: %s FAILED (whole output in %s)\n' "${suite}" "${log}" >&2
    return 1
  fi
}

# As many suites at a time as the machine has cores.
status=0
running=0
for suite in "${suites[@]}"; do
  run_suite "${suite}" &
  running=$((running + 1))
  if ((running >= jobs)); then
    wait -n || status=1
    running=$((running - 1))
  fi
done
while ((running > 0)); do
  wait -n || status=1
  running=$((running - 1))
done
if [[ ${status} -ne 0 ]]; then
  printf 'sanitizers: FAILED\n' >&2
else
  printf 'sanitizers: every test passed under AddressSanitizer and UndefinedBehaviorSanitizer\n'
fi
exit "${status}"
