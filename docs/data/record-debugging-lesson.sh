#!/usr/bin/env bash
# Records, on a GPU, what lesson 10 (lessons/10_debugging/lesson.md) shows of NVIDIA's tools: the
# four compute-sanitizer tools on the lesson's planted bugs, a clean run for contrast, the sticky
# and the non-sticky error of tools/gpu/bug_hunt.cu, and the app's own run of the null bug. Nothing
# here is for a machine without a GPU: the lesson shows no output until this has run, and none
# is made up.
#
# Run from the repository root on the GPU machine (nvcc and compute-sanitizer on PATH or in
# /usr/local/cuda/bin; the app built, e.g. with THREADLAB_CUDA_ARCHITECTURES=90 scripts/build.sh):
#
#   bash docs/data/record-debugging-lesson.sh [--threadlab PATH] [--out DIR] [--fill-lesson]
#   bash docs/data/record-debugging-lesson.sh --fill-only      (anywhere, no GPU needed)
#
#   --threadlab PATH   the app (default build/app/threadlab; skipped with a note when absent)
#   --out DIR          where the logs go (default docs/data)
#   --fill-lesson      after recording, replace the lesson's "Recorded output: not yet recorded."
#                      paragraphs with an excerpt of each log in docs/data, labelled with the GPU,
#                      the date and the log's name (needs --out docs/data, the default)
#   --fill-only        only that, from the newest debugging-<tool>-*.log of each tool in docs/data
#                      (logs recorded elsewhere with --out and copied there)
#
# Writes, with GPU = the device's name in lower case with dashes (e.g. nvidia-h100-80gb-hbm3) and
# DATE = today (UTC):
#   DIR/debugging-memcheck-GPU-DATE.log      memcheck on bug_hunt no-guard (out of range)
#   DIR/debugging-racecheck-GPU-DATE.log     racecheck on bug_hunt no-barrier (shared-memory race)
#   DIR/debugging-synccheck-GPU-DATE.log     synccheck on bug_hunt divergent (divergent barrier)
#   DIR/debugging-initcheck-GPU-DATE.log     initcheck on bug_hunt accumulates (uninitialised read)
#   DIR/debugging-clean-GPU-DATE.log         memcheck, racecheck, synccheck, initcheck on bug_hunt none
#   DIR/debugging-errors-GPU-DATE.log        bug_hunt null (sticky) and bad-config (not sticky), and
#                                            threadlab run --lesson debugging --bug null
# Each log starts with the commands that made it, the GPU, the driver and the sanitizer's version.
# The exit status is 0 once every log is written (the tools' findings are the point, not failures).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
threadlab=build/app/threadlab
out=docs/data
fill=0
record=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --threadlab) threadlab=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --fill-lesson) fill=1; shift ;;
    --fill-only) fill=1; record=0; shift ;;
    *) echo "record-debugging-lesson: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ $fill -eq 1 && $record -eq 1 && "$out" != docs/data ]]; then
  echo "record-debugging-lesson: --fill-lesson reads docs/data; copy the logs there and run --fill-only" >&2
  exit 2
fi

# The lesson's placeholders, each replaced by an excerpt of the newest log of its tool in
# docs/data, said to be one: the command, the tool's first report without its host backtrace,
# and the tool's summary line. The GPU and the date come from the log's first line.
fill_lesson() {
  python3 - <<'PYTHON'
import pathlib, re, sys
lesson = pathlib.Path("lessons/10_debugging/lesson.md")
text = lesson.read_text()
status = 0
for tool in ("memcheck", "racecheck", "synccheck", "initcheck"):
    logs = sorted(pathlib.Path("docs/data").glob(f"debugging-{tool}-*.log"),
                  key=lambda path: path.stat().st_mtime)
    if not logs:
        print(f"record-debugging-lesson: no docs/data/debugging-{tool}-*.log", file=sys.stderr)
        status = 1
        continue
    log = logs[-1]
    all_lines = log.read_text().splitlines()
    header = re.match(r"# lesson 10 \(debugging\), recorded on (.+), (\d{4}-\d{2}-\d{2}) \(", all_lines[0])
    if not header:
        print(f"record-debugging-lesson: {log} does not start with this script's header", file=sys.stderr)
        status = 1
        continue
    gpu_name, date = header.group(1), header.group(2)
    lines = [l for l in all_lines if not l.startswith("# ")]
    excerpt, reports = [], 0
    for line in lines:
        if line.startswith("[exit status"):
            break
        if "Host Frame" in line or "Saved host backtrace" in line:
            continue
        if line.strip() == "=========":  # the blank line that ends a report
            reports += 1
            if reports == 1:
                break
            continue
        excerpt.append(line)
    summary = [l for l in lines if "SUMMARY" in l]
    if summary and summary[-1] not in excerpt:
        excerpt += ["…", summary[-1]]
    pattern = re.compile(r"Recorded output: not yet recorded\.\s+`docs/data/record-debugging-lesson\.sh`\s+"
                         r"runs\s+" + tool + r"\s+on\s+this\s+kernel.*?made up\.", re.S)
    label = (f"Recorded on {gpu_name}, {date}, by `docs/data/record-debugging-lesson.sh` (an "
             f"excerpt: the first report without its host backtrace, and the summary; the whole "
             f"log is `{log.as_posix()}`):")
    text, count = pattern.subn(lambda _: label + "\n\n```text\n" + "\n".join(excerpt) + "\n```", text)
    if count != 1:
        print(f"record-debugging-lesson: the lesson has no placeholder for {tool} (filled already?)",
              file=sys.stderr)
        status = 1
lesson.write_text(text)
print(f"filled {lesson}; read it again: the prose around each report was written before it")
sys.exit(status)
PYTHON
}

if [[ $record -eq 0 ]]; then
  fill_lesson
  exit $?
fi
export PATH="$PATH:/usr/local/cuda/bin"
for tool in nvcc compute-sanitizer nvidia-smi; do
  if ! command -v "$tool" >/dev/null; then
    echo "record-debugging-lesson: $tool not found; this script runs on the GPU machine" >&2
    exit 1
  fi
done
mkdir -p "$out"

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
gpu=$(echo "$gpu_name" | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed 's/-$//')
date=$(date -u +%Y-%m-%d)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -n 1)
sanitizer=$(compute-sanitizer --version | tail -n 1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bug_hunt="$work/bug_hunt"
# -lineinfo: the sanitizer's reports name the kernel's source line.
nvcc -O2 -lineinfo -std=c++20 -arch=sm_90 -I. -Iapp tools/gpu/bug_hunt.cu -o "$bug_hunt" || exit 1

header() {
  echo "# lesson 10 (debugging), recorded on $gpu_name, $date (driver $driver, $sanitizer)"
  echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown); bug_hunt built with:"
  echo "#   nvcc -O2 -lineinfo -std=c++20 -arch=sm_90 -I. -Iapp tools/gpu/bug_hunt.cu -o bug_hunt"
}

# One command into a log: the command as run, then everything it printed, then its exit status.
run_logged() {
  local log=$1
  shift
  echo "\$ $*" | sed "s|$bug_hunt|./bug_hunt|g" >>"$log"
  "$@" 2>&1 | sed "s|$bug_hunt|./bug_hunt|g" >>"$log"
  echo "[exit status ${PIPESTATUS[0]}]" >>"$log"
  echo >>"$log"
}

declare -A bug_of=([memcheck]=no-guard [racecheck]=no-barrier [synccheck]=divergent [initcheck]=accumulates)
for tool in memcheck racecheck synccheck initcheck; do
  log="$out/debugging-$tool-$gpu-$date.log"
  header >"$log"
  run_logged "$log" compute-sanitizer --tool "$tool" "$bug_hunt" "${bug_of[$tool]}"
  echo "wrote $log"
done

log="$out/debugging-clean-$gpu-$date.log"
header >"$log"
for tool in memcheck racecheck synccheck initcheck; do
  run_logged "$log" compute-sanitizer --tool "$tool" "$bug_hunt" none
done
echo "wrote $log"

log="$out/debugging-errors-$gpu-$date.log"
header >"$log"
run_logged "$log" "$bug_hunt" null
run_logged "$log" "$bug_hunt" bad-config
if [[ -x "$threadlab" ]]; then
  run_logged "$log" "$threadlab" run --lesson debugging --bug null --backend gpu --check
  run_logged "$log" "$threadlab" run --lesson debugging --bug none --backend gpu --check
else
  echo "# $threadlab not found: the app's run of the null bug was not recorded" >>"$log"
fi
echo "wrote $log"

[[ $fill -eq 1 ]] || exit 0
fill_lesson
