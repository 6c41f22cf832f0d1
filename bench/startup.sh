#!/usr/bin/env bash
# Start-up benchmark: wall time of `clrscope --version` and `clrscope ps`, median of RUNS, with and
# without the AppCDS archive and through the ./clrscope launcher as users run it, side by side with
# dotnet-trace's `--version` and `ps`, while FIVE .NET processes run (ps must ask each).
# dotnet-trace comes from NuGet (`dotnet tool install`) into bench/target/dotnet-tools when missing.
# Usage: bench/startup.sh [RUNS]   (after `mvn -q -DskipTests package`)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
app=src/test/target/apps/TargetApp/TargetApp.dll
jar=cli/target/clrscope.jar
jsa=cli/target/clrscope.jsa
[ -f "$app" ] && [ -f "$jar" ] || { echo "build first: mvn -q -DskipTests package" >&2; exit 1; }

tools=bench/target/dotnet-tools
if [ ! -x "$tools/dotnet-trace" ]; then
  dotnet tool install --tool-path "$tools" dotnet-trace >/dev/null
fi

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
for i in 1 2 3 4 5; do
  dotnet "$app" --no-stdin --exit-after-ms 600000 >/dev/null 2>&1 &
  pids+=($!)
done
sleep 3 # let every runtime create its socket

median_ms() { # command...
  local times=()
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'
}

flags=(-XX:+UseSerialGC -XX:-UsePerfData -XX:TieredStopAtLevel=1 -Dfile.encoding=UTF-8)
with_cds=(java -XX:SharedArchiveFile="$jsa" -Xlog:cds=off -Xlog:cds+dynamic=off "${flags[@]}" -jar "$jar")
without=(java -Xshare:auto "${flags[@]}" -jar "$jar")

found=$(./clrscope ps --format csv | tail -n +2 | wc -l)
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), .NET processes listed by ps: $found"
printf '%-28s %8s %8s\n' "command (median of $runs)" "AppCDS" "no CDS"
printf '%-28s %6s ms %5s ms\n' "clrscope --version" "$(median_ms "${with_cds[@]}" --version)" "$(median_ms "${without[@]}" --version)"
printf '%-28s %6s ms %5s ms\n' "clrscope ps" "$(median_ms "${with_cds[@]}" ps)" "$(median_ms "${without[@]}" ps)"
# The launcher and dotnet-trace in turns (one run of each, RUNS times), so that a change in the
# machine's load falls on both alike.
side_by_side() { # label args...
  local ours=() theirs=()
  for ((i = 0; i < runs; i++)); do
    local t0 t1 t2
    t0=$(date +%s%N)
    ./clrscope "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    "$tools/dotnet-trace" "$@" >/dev/null 2>&1
    t2=$(date +%s%N)
    ours+=($(((t1 - t0) / 1000000)))
    theirs+=($(((t2 - t1) / 1000000)))
  done
  printf '%-28s %6s ms %9s ms\n' "$*" "$(printf '%s\n' "${ours[@]}" | median)" \
    "$(printf '%s\n' "${theirs[@]}" | median)"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }
echo
printf '%-28s %9s %12s   (%s)\n' "in turns (median of $runs)" "./clrscope" "dotnet-trace" \
  "$("$tools/dotnet-trace" --version | cut -d+ -f1)"
side_by_side --version
side_by_side ps
