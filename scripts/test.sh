#!/usr/bin/env bash
# Quick start 2: installs the dependencies, builds, and runs the whole CTest suite. Without a
# display the suite runs under a virtual X server (xvfb-run), so the GUI tests still open a real
# window. Extra arguments go to ctest, e.g. `scripts/test.sh -L cli` or `scripts/test.sh -R Trace`.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${repo_root}"

scripts/install-deps.sh
scripts/build.sh

build_dir="${THREADLAB_BUILD_DIR:-build}"
jobs="${THREADLAB_JOBS:-$(nproc)}"
# --no-tests=error: a suite that found no tests is a broken build, not a pass. --timeout only applies
# to tests without their own TIMEOUT, so one hung test cannot eat CI's time limit.
ctest_cmd=(ctest --test-dir "${build_dir}" --output-on-failure --no-tests=error --timeout 600
  --parallel "${jobs}" "$@")

# ctest's summary counts a skipped test as passed ("100% tests passed" over GPU tests that did not
# run on a machine without a GPU): say after it how many were skipped and why.
report_skipped() {
  local log="${build_dir}/Testing/Temporary/LastTest.log"
  [[ -f "${log}" ]] || return 0
  local skipped
  skipped=$(grep -c ': Skipped$' "${log}" || true)
  [[ "${skipped}" -gt 0 ]] || return 0
  printf 'test: %s tests were skipped, not passed. Why:\n' "${skipped}"
  # GoogleTest prints the reason on the line after "...: Skipped"; one line per distinct reason.
  grep -A1 ': Skipped$' "${log}" | grep -v -e ': Skipped$' -e '^--$' | sort | uniq -c |
    sed 's/^ */  /'
}

status=0
if [[ -n "${DISPLAY:-}" ]]; then
  printf 'test: running the suite on DISPLAY=%s\n' "${DISPLAY}"
  "${ctest_cmd[@]}" || status=$?
elif command -v xvfb-run >/dev/null 2>&1; then
  printf 'test: no DISPLAY: running the suite under xvfb-run\n'
  # -a picks a free display number, so parallel runs (and the tests' own xvfb-run) do not clash;
  # 24-bit colour so screenshots look like a real desktop's.
  xvfb-run -a -s "-screen 0 1920x1080x24" "${ctest_cmd[@]}" || status=$?
else
  printf 'test: warning: no DISPLAY and no xvfb-run: tests that need a window will be skipped\n' >&2
  "${ctest_cmd[@]}" || status=$?
fi
report_skipped
exit "${status}"
