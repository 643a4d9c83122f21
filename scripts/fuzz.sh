#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer + UBSan, no CUDA) in build-fuzz/ and runs
# each for a bounded time on its seed corpus (tests/fuzz/corpus/<target>/, kept in the repository).
# New inputs go to a scratch copy, so the repository's corpus only changes when someone adds to it.
# A crash, leak, sanitizer finding or timeout fails the run; the reproducer is left in build-fuzz/.
#
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 30; CI uses the default)
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

seconds="${1:-30}"
build_dir="${THREADLAB_FUZZ_BUILD_DIR:-build-fuzz}"
jobs="${THREADLAB_JOBS:-$(nproc)}"
targets=(fuzz_arguments fuzz_launch_config fuzz_lesson_text fuzz_settings_files fuzz_demo_script)

scripts/install-deps.sh
printf 'fuzz: configuring %s (clang, libFuzzer, address + undefined)\n' "${build_dir}"
cmake -S . -B "${build_dir}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTHREADLAB_CUDA=OFF \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DTHREADLAB_FUZZ=ON \
  -DTHREADLAB_SANITIZE=address,undefined,fuzzer-no-link >/dev/null
cmake --build "${build_dir}" --parallel "${jobs}" --target "${targets[@]}"

# A small quarantine keeps a long run's memory flat; use-after-free is still caught on recent frees.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:quarantine_size_mb=32"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for target in "${targets[@]}"; do
  binary="${build_dir}/tests/fuzz/${target}"
  scratch="${build_dir}/fuzz-corpus/${target}"
  mkdir -p "${scratch}"
  cp -n tests/fuzz/corpus/"${target}"/* "${scratch}/" 2>/dev/null || true
  printf 'fuzz: %s for %s s\n' "${target}" "${seconds}"
  # -timeout: one input taking over 10 s is a hang; -rss_limit_mb keeps a runaway allocation a
  # finding rather than the machine's problem. The whole output goes to a log beside the build.
  log="$(realpath -m "${build_dir}")/${target}.log"
  set +e
  (cd "${build_dir}" && "${OLDPWD}/${binary}" "${OLDPWD}/${scratch}" \
    -max_total_time="${seconds}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    >"${log}" 2>&1)
  status=$?
  set -e
  tail -n 12 "${log}"
  if [[ ${status} -ne 0 ]]; then
    # The finding itself, the sanitizer's report with its stacks, not only libFuzzer's summary.
    grep -m1 -A60 -E '^==[0-9]+==ERROR|runtime error|ERROR: libFuzzer' "${log}" >&2 || true
    printf 'fuzz: %s FAILED (exit %s); reproducer in %s, whole output in %s\n' "${target}" \
      "${status}" "${build_dir}" "${log}" >&2
    exit 1
  fi
done
printf 'fuzz: every target ran %s s without a finding\n' "${seconds}"
