#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer + UBSan, no CUDA) in the sanitizers'
# tree (build-sanitize/, shared with scripts/test-sanitizers.sh, so the core is compiled once for
# both) and runs each for a bounded time on its seed corpus (tests/fuzz/corpus/<target>/, kept in
# the repository), as many targets at a time as the machine has cores. New inputs go to a scratch
# copy, so the repository's corpus only changes when someone adds to it. A crash, leak, sanitizer
# finding or timeout fails the run; the reproducer is left in the build directory.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 30; CI uses the default)
# Environment: THREADLAB_SANITIZE_BUILD_DIR (default: build-sanitize), THREADLAB_JOBS (default: nproc).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

seconds="${1:-30}"
build_dir="${THREADLAB_SANITIZE_BUILD_DIR:-build-sanitize}"
jobs="${THREADLAB_JOBS:-$(nproc)}"
targets=(fuzz_arguments fuzz_command_line fuzz_launch_config fuzz_lesson_text fuzz_settings_files
  fuzz_demo_script fuzz_class_messages)

THREADLAB_SANITIZE_BUILD_ONLY=1 THREADLAB_SANITIZE_BUILD_DIR="${build_dir}" scripts/test-sanitizers.sh

# A small quarantine keeps a long run's memory flat; use-after-free is still caught on recent frees.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:quarantine_size_mb=32"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
build_path="$(realpath -m "${build_dir}")"

run_target() {
  local target="$1"
  local binary="${build_path}/tests/fuzz/${target}"
  local scratch="${build_path}/fuzz-corpus/${target}"
  local log="${build_path}/${target}.log"
  # Each target gets its own working directory: libFuzzer writes its reproducers (crash-*, leak-*)
  # into the current one.
  local workdir="${build_path}/fuzz-work/${target}"
  mkdir -p "${scratch}" "${workdir}"
  cp -n tests/fuzz/corpus/"${target}"/* "${scratch}/" 2>/dev/null || true
  printf 'fuzz: %s for %s s\n' "${target}" "${seconds}"
  # -timeout: one input taking over 10 s is a hang; -rss_limit_mb keeps a runaway allocation a
  # finding rather than the machine's problem. The whole output goes to a log beside the build.
  local status=0
  (cd "${workdir}" && "${binary}" "${scratch}" -max_total_time="${seconds}" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 >"${log}" 2>&1) || status=$?
  if [[ ${status} -ne 0 ]]; then
    tail -n 12 "${log}"
    # The finding itself, the sanitizer's report with its stacks, not only libFuzzer's summary.
    grep -m1 -A60 -E '^==[0-9]+==ERROR|runtime error|ERROR: libFuzzer' "${log}" >&2 || true
    printf 'fuzz: %s FAILED (exit %s); reproducer in %s, whole output in %s\n' "${target}" \
      "${status}" "${workdir}" "${log}" >&2
    return 1
  fi
  printf 'fuzz: %s: %s\n' "${target}" "$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' \
    "${log}" | sed 's/.*: */executed /') inputs, no finding"
}

status=0
running=0
for target in "${targets[@]}"; do
  run_target "${target}" &
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
  printf 'fuzz: FAILED\n' >&2
  exit 1
fi
printf 'fuzz: every target ran %s s without a finding\n' "${seconds}"
