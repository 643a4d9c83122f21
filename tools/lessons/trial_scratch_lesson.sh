#!/usr/bin/env bash
# The scratch-lesson trial (docs/ADDING_A_LESSON.md): adds a lesson with a kernel set of its own to
# a throwaway copy of the committed tree, as a contributor would, and checks what issue 30 promises:
#
#   1. it touches only its folder and one registration line (git status of the copy);
#   2. a new kernel set recompiles none of the app: only the new lesson's files, its generated
#      executor files, the generated registries and the embedded texts, then archives and links
#      (the .ninja_log entries the rebuild added); and those compile without a warning;
#   3. registering it is enough for the generic suites to run it, and its own test in its tests/
#      folder: the emulator's every-lesson,
#      kernel-registry and mapping-probe suites, the window's lesson-link, emulator-note,
#      guided-step and every-lesson-view tests, the documented links, the layer check; and
#      `threadlab run --lesson saxpy --backend emulator --check` runs it and passes its check.
#
# The lesson is tools/lessons/scratch_saxpy/ (y = a·x + y, kernel set `saxpy`), copied to
# lessons/12_saxpy/ with `threadlab_lesson(12_saxpy KERNEL_SET saxpy)` added to lessons/CMakeLists.txt.
# The copy is a detached worktree of HEAD (committed files only), removed at exit. It is built
# twice: once as committed (through ccache, if the build finds it), once with the lesson (ccache's
# results not used, so that the time is the compile's own). Progress on stdout; exit 0 when
# everything holds, else 1 with one line on stderr saying what did not.
#
#   tools/lessons/trial_scratch_lesson.sh
#
# Environment: THREADLAB_JOBS (build jobs, default nproc), THREADLAB_CUDA_ARCHITECTURES (as for
# scripts/build.sh, e.g. 90), THREADLAB_TRIAL_PARENT (where the copy goes; default the folder that
# holds this checkout, so that a ccache with base_dir above it hits for the copy too),
# THREADLAB_TRIAL_KEEP=1 (keep the copy and its build, for a look afterwards).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
lesson=12_saxpy
kernel_set=saxpy
lesson_id=saxpy
source_rel=tools/lessons/scratch_saxpy
line="threadlab_lesson(${lesson} KERNEL_SET ${kernel_set})"
jobs="${THREADLAB_JOBS:-$(nproc)}"
parent="${THREADLAB_TRIAL_PARENT:-$(dirname "${repo_root}")}"

say() { printf 'trial: %s\n' "$*"; }
fail() {
  printf 'trial: FAILED: %s\n' "$*" >&2
  exit 1
}
started=${SECONDS}
elapsed() { printf '%dm%02ds' $(((SECONDS - $1) / 60)) $(((SECONDS - $1) % 60)); }

# The copy in <temp>/tree, the logs beside it in <temp>/logs (not in the copy, whose status is
# checked).
temp="$(mktemp -d "${parent}/threadlab-trial.XXXXXX")"
trial="${temp}/tree"
logs="${temp}/logs"
mkdir "${logs}"
cleanup() {
  if [[ "${THREADLAB_TRIAL_KEEP:-0}" == 1 ]]; then
    say "kept ${temp} (git -C ${repo_root} worktree remove --force ${trial}; rm -r ${temp})"
    return
  fi
  git -C "${repo_root}" worktree remove --force "${trial}" >/dev/null 2>&1 || true
  rm -rf "${temp}"
  git -C "${repo_root}" worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT

# The build's own output goes to a log; on failure its end is shown. Extra arguments are
# environment assignments for it.
build() {
  local log="$1"
  shift
  if ! (cd "${trial}" && env THREADLAB_JOBS="${jobs}" "$@" bash scripts/build.sh >"${log}" 2>&1); then
    tail -n 40 "${log}" >&2
    return 1
  fi
}

commit="$(git -C "${repo_root}" rev-parse --short HEAD)"
say "copy of the committed tree at ${commit} in ${trial}; logs in ${logs}"
say "(both removed at exit; THREADLAB_TRIAL_KEEP=1 keeps them)"
git -C "${repo_root}" worktree add --detach --quiet "${trial}" HEAD
[[ -d "${trial}/${source_rel}" ]] || fail "${source_rel} is not in the committed tree"
[[ ! -e "${trial}/lessons/${lesson}" ]] || fail "lessons/${lesson} already exists in the committed tree"

say "building the tree as committed (${jobs} jobs; log: ${logs}/build-before.log)"
phase=${SECONDS}
build "${logs}/build-before.log" || fail "the committed tree does not build cleanly"
say "built in $(elapsed "${phase}")"
cp "${trial}/build/.ninja_log" "${logs}/ninja-log-before"

say "adding the lesson: ${source_rel}/ -> lessons/${lesson}/, and '${line}'"
cp -R "${trial}/${source_rel}" "${trial}/lessons/${lesson}"
# The line goes at the end of the list of lessons: after the last declaration, before the part of
# the file that reads the list ("Nothing below names a lesson").
cmake_list="${trial}/lessons/CMakeLists.txt"
marker='# ---- Nothing below names a lesson.'
grep -q "^${marker}" "${cmake_list}" || fail "lessons/CMakeLists.txt has no '${marker}' line"
awk -v line="${line}" -v marker="${marker}" '
  { lines[NR] = $0 }
  index($0, marker) == 1 && !at { at = NR }
  END {
    last = at - 1
    while (last > 0 && lines[last] ~ /^[[:space:]]*$/) last--
    for (i = 1; i <= NR; i++) { print lines[i]; if (i == last) print line }
  }' "${cmake_list}" >"${cmake_list}.new"
mv "${cmake_list}.new" "${cmake_list}"

say "what changed (git status --porcelain):"
changes="$(git -C "${trial}" status --porcelain --untracked-files=all)"
printf '%s\n' "${changes}" | sed 's/^/trial:   /'
outside="$(printf '%s\n' "${changes}" | cut -c4- |
  grep -v -e "^lessons/${lesson}/" -e '^lessons/CMakeLists.txt$' || true)"
[[ -z "${outside}" ]] || fail "files outside lessons/${lesson}/ changed: $(echo ${outside})"
numstat="$(git -C "${trial}" diff --numstat -- lessons/CMakeLists.txt)"
[[ "${numstat}" == $'1\t0\tlessons/CMakeLists.txt' ]] ||
  fail "lessons/CMakeLists.txt changed by more than one added line (${numstat:-no change})"
files=$(printf '%s\n' "${changes}" | grep -c "lessons/${lesson}/" || true)
say "  ${files} new files in lessons/${lesson}/ and 1 added line in lessons/CMakeLists.txt"

# The rebuild really compiles what it recompiles (CCACHE_RECACHE: ccache's results are replaced, not
# used), so its time does not depend on whether an earlier trial filled the cache.
say "rebuilding with the lesson, ccache's cached results not used (log: ${logs}/build-after.log)"
phase=${SECONDS}
build "${logs}/build-after.log" CCACHE_RECACHE=1 || fail "the tree with lessons/${lesson} does not build"
say "rebuilt in $(elapsed "${phase}")"
# The rebuild compiles the lesson's files and the generated ones alone (checked below): any warning
# in its log is theirs, under the project's warnings (cmake/ThreadLabWarnings.cmake).
if grep -q -i 'warning' "${logs}/build-after.log"; then
  grep -i -m 10 'warning' "${logs}/build-after.log" >&2
  fail "the lesson does not compile cleanly: warnings in ${logs}/build-after.log"
fi

# What ninja ran for the rebuild: the entries of .ninja_log that were not there before (an entry is
# start, end, mtime, output, command hash; a rerun of a step writes a new one).
ran="$(comm -13 <(sort "${logs}/ninja-log-before") <(grep -v '^#' "${trial}/build/.ninja_log" | sort) |
  cut -f4 | sort -u)"
objects="$(printf '%s\n' "${ran}" | grep -E '\.o(bj)?$' || true)"
# Allowed: the lesson's own sources, its generated executor files, the generated registries (kernel
# sets, mapping probes, lessons, views), the embedded lesson texts and kernel sources, the embedded
# compiled listings (the GPU kernels' SASS and PTX, which now hold the lesson's too), CUDA's device
# link of the libraries that gained code.
allowed="/${lesson}/|/kernel_sets/${kernel_set}_(emulated\.cpp|gpu\.cu)\.o$"
allowed+="|/kernel_sets/(emulator|gpu|mapping_probe)_registry\.cpp\.o$"
allowed+="|/lesson_(registry|views)_generated\.cpp\.o$|/lesson_texts\.cpp\.o$|cmake_device_link\.o$"
allowed+="|/compiled_kernels\.cpp\.o$"
app_objects="$(printf '%s\n' "${objects}" | grep -v -E "${allowed}" | grep -v '^$' || true)"
say "recompiled ($(printf '%s\n' "${objects}" | grep -c . || true) object files):"
printf '%s\n' "${objects}" | { grep . || true; } | sed 's/^/trial:   /'
# The rest, by kind: what was linked, the generated sources, and CMake's own bookkeeping (the glob
# check, each test executable's list of tests, written after its link).
others="$(printf '%s\n' "${ran}" | grep -v -E '\.o(bj)?$' | grep . || true)"
kind() { printf '%s\n' "${others}" | grep -E "$1" | grep -v -E "${2:-^$}" | xargs -r -n1 basename | sort -u | xargs; }
say "also ran $(printf '%s\n' "${others}" | grep -c . || true) other steps:"
say "  archived: $(kind '\.a$')"
say "  linked: $(kind '/[^/.]+$|/threadlab-[a-z-]+$' '\.(a|cpp|cmake)$|verify_globs')"
say "  generated: $(kind '\.(cpp|cu)$')"
say "  CMake's bookkeeping: $(printf '%s\n' "${others}" | grep -c -E '_tests\.cmake$|verify_globs' || true) steps (the glob check, each test executable's test list)"
[[ -z "${app_objects}" ]] ||
  fail "the new kernel set recompiled app code: $(echo ${app_objects})"
say "  none of the app was recompiled"

cd "${trial}"
run_suite() {  # name, log, command...
  local name="$1" log="$2"
  shift 2
  say "${name}"
  if ! "$@" >"${log}" 2>&1; then
    grep -E '^\[  FAILED  \]|Failure|error' "${log}" | head -n 20 >&2 || tail -n 20 "${log}" >&2
    fail "${name}: failed (log: ${log})"
  fi
}
expect_ran() {  # log, gtest name that must have passed
  grep -qF "[       OK ] $2" "$1" || fail "$2 did not run and pass (log: $1)"
}

emulator_filter="LessonRegistry.*:Registered/EveryLesson.*:KernelRegistry.*"
emulator_filter+=":Registered/EveryKernelSet.*:MappingProbe.*:Devices/SaxpyKernels.*"
run_suite "emulator suites: ${emulator_filter}" "${logs}/emulator-tests.log" \
  build/tests/emulator/threadlab_emulator_tests --gtest_filter="${emulator_filter}"
expect_ran "${logs}/emulator-tests.log" "Registered/EveryLesson.DefaultsRunTimedAndPassTheCheck/${lesson_id}"
expect_ran "${logs}/emulator-tests.log" "Registered/EveryLesson.DefaultsTraceEveryElementOnce/${lesson_id}"
expect_ran "${logs}/emulator-tests.log" "Registered/EveryKernelSet.TimedAndTracedKernelsMapThreadsAlike/${kernel_set}"
expect_ran "${logs}/emulator-tests.log" "KernelRegistry.TheEmulatorListsEveryDeclaredSetOnce"
# The lesson's own test (its tests/ folder), found by the build as its sources are.
expect_ran "${logs}/emulator-tests.log" "Devices/SaxpyKernels.MatchTheReferenceInPlaceAndLeaveThePastTheEndAlone/Emulator"
say "  $(grep -c "^\[       OK \].*/${lesson_id}\b" "${logs}/emulator-tests.log") tests of the lesson and its set passed, $(grep -m1 -o '[0-9]* tests\? from [0-9]* test suites\? ran' "${logs}/emulator-tests.log")"

gui_filter="LessonLinks.*:EmulatorNotes.*:ClassroomTest.EveryLesson*:Registered/EveryLessonViews.*/${lesson_id}"
run_suite "window suites: ${gui_filter}" "${logs}/gui-tests.log" \
  build/tests/gui/threadlab_gui_tests --gtest_filter="${gui_filter}"
expect_ran "${logs}/gui-tests.log" "Registered/EveryLessonViews.OpensLaunchesAndDrawsEachOfItsTabs/${lesson_id}"
expect_ran "${logs}/gui-tests.log" "LessonLinks.EveryKernelBlockNamesAKernelFileEmbeddedInTheApp"
run_suite "documented links: DocumentedLinks.*" "${logs}/core-tests.log" \
  build/tests/core/threadlab_core_tests --gtest_filter='DocumentedLinks.*'
run_suite "layer check: tools/layers/check_layers.py" "${logs}/layers.log" \
  python3 tools/layers/check_layers.py --root . --target-graph build/threadlab-targets.txt

run_suite "threadlab lessons" "${logs}/cli-lessons.log" build/app/threadlab lessons
grep -q "${lesson_id}" "${logs}/cli-lessons.log" || fail "threadlab lessons does not list ${lesson_id}"
run_suite "threadlab run --lesson ${lesson_id} --backend emulator --check" "${logs}/cli-run.log" \
  build/app/threadlab run --lesson "${lesson_id}" --backend emulator --check
sed 's/^/trial:   /' "${logs}/cli-run.log"

say "PASSED in $(elapsed "${started}"): lessons/${lesson}/ and one line; no app object recompiled; the generic suites and the command line run it"
