#!/usr/bin/env bash
# Whole-process side by side with TraceEvent, as a user runs each: `clrscope trace stats` and
# `clrscope trace events` (JSON Lines) against the same work written on TraceEvent
# (bench/traceevent, restored from NuGet and built into bench/target/traceevent on first use), on
# the generated trace bench/target/nettrace-bench.nettrace (230 MB, 5.7 M events, every event with a
# stack). Output goes to /dev/null. Prints the median wall time and peak RSS of RUNS runs each.
# Usage: bench/vs-traceevent.sh [RUNS]   (after `mvn -q -DskipTests package`)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
jar=bench/target/benchmarks.jar
trace=bench/target/nettrace-bench.nettrace
te=bench/target/traceevent
[ -f cli/target/clrscope.jar ] && [ -f "$jar" ] || {
  echo "build first: mvn -q -DskipTests package" >&2
  exit 1
}
[ -f "$trace" ] || java -cp "$jar" dev.clrscope.bench.TraceGenerator "$trace" >/dev/null
if [ ! -f "$te/out/TraceEventCli.dll" ]; then
  # Built from a copy, so no obj/ or bin/ lands in the source tree.
  mkdir -p "$te/src"
  cp bench/traceevent/TraceEventCli.csproj bench/traceevent/Program.cs "$te/src/"
  dotnet build -c Release "$te/src/TraceEventCli.csproj" -o "$te/out" >/dev/null
fi

. bench/lib.sh

measure() { # label command...
  local label=$1 times=() rss=()
  shift
  for ((i = 0; i < runs; i++)); do
    local out
    /usr/bin/time -o "$te/time.txt" -f "%e %M" "$@" >/dev/null 2>/dev/null
    out=$(tail -1 "$te/time.txt")
    times+=("${out% *}")
    rss+=("${out#* }")
  done
  printf '%-34s %7.2f s %7d MB\n' "$label" \
    "$(printf '%s\n' "${times[@]}" | median)" "$(($(printf '%s\n' "${rss[@]}" | median | cut -d. -f1) / 1024))"
}

export DOTNET_gcServer=0 DOTNET_CLI_TELEMETRY_OPTOUT=1
echo "trace: $trace ($(stat -c %s "$trace") bytes); $(nproc) cores; median of $runs"
printf '%-34s %9s %10s\n' "" "wall" "peak RSS"
measure "clrscope trace stats --format json" ./clrscope trace stats "$trace" --format json
measure "TraceEvent stats" dotnet "$te/out/TraceEventCli.dll" stats "$trace"
measure "clrscope trace events (JSON Lines)" ./clrscope trace events "$trace"
measure "TraceEvent events" dotnet "$te/out/TraceEventCli.dll" events "$trace"
