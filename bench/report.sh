#!/usr/bin/env bash
# Symbol resolution and `trace report topN`, side by side with dotnet-trace's `report topN` on the
# same file. The input is recorded once (kept in bench/target/deep.nettrace): TargetApp with
# THREADS threads, each DEPTH frames deep and sleeping, sampled as thread time for SECONDS, which
# gives THREADS x DEPTH x ~1000 frames a second (40 x 64 x 1000 x 6 s: ~15 million frames).
# Then RUNS turns of one clrscope run and one dotnet-trace run (so a change in the machine's load
# falls on both alike); medians and the frames per second clrscope names.
# dotnet-trace: $DOTNET_TRACE, else bench/target/dotnet-tools (installed from NuGet when missing).
# With LINES=1, the turns are clrscope with source lines (the default) and with --no-lines instead,
# then --by-line: what lines cost (every frame of the trace is TargetApp's, whose PDB is beside it).
# Usage: bench/report.sh [RUNS]   (after `mvn -q -DskipTests install`)
#        LINES=1 bench/report.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
threads=${THREADS:-40}
depth=${DEPTH:-64}
seconds=${SECONDS_TRACED:-6}
app=src/test/target/apps/TargetApp/TargetApp.dll
trace=bench/target/deep.nettrace
[ -f "$app" ] && [ -f cli/target/clrscope.jar ] || { echo "build first: mvn -q -DskipTests install" >&2; exit 1; }

lines=${LINES:-0}
dt=${DOTNET_TRACE:-bench/target/dotnet-tools/dotnet-trace}
if [ "$lines" != 1 ] && [ ! -x "$dt" ]; then
  dotnet tool install --tool-path bench/target/dotnet-tools dotnet-trace >/dev/null
  dt=bench/target/dotnet-tools/dotnet-trace
fi

if [ ! -f "$trace" ]; then
  mkdir -p bench/target
  fifo=$(mktemp -u) && mkfifo "$fifo"
  dotnet "$app" <"$fifo" >bench/target/deep-app.out 2>&1 &
  app_pid=$!
  exec 3>"$fifo"
  until grep -q '"ready"' bench/target/deep-app.out; do sleep 0.1; done
  ./clrscope trace collect -p "$app_pid" --profile dotnet-sampled-thread-time \
    --duration "$((seconds + 2))s" -o "$trace" >/dev/null 2>bench/target/deep-collect.err &
  collect_pid=$!
  sleep 1
  echo "deep $threads $depth $((seconds * 1000))" >&3
  wait "$collect_pid"
  exec 3>&-
  kill "$app_pid" 2>/dev/null || true
  rm -f "$fifo"
fi

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }

if [ "$lines" = 1 ]; then
  frames=$(./clrscope trace report "$trace" topN --format json | sed 's/.*"frames":\([0-9]*\).*/\1/')
  echo "machine: $(nproc) cores (shared), $(java -version 2>&1 | head -1)"
  echo "trace: $trace, $(du -h "$trace" | cut -f1), $frames stack frames"
  with=() without=() byline=()
  for ((i = 0; i < runs; i++)); do
    t0=$(date +%s%N)
    ./clrscope trace report "$trace" topN -N 20 >/dev/null
    t1=$(date +%s%N)
    ./clrscope trace report "$trace" topN -N 20 --no-lines >/dev/null
    t2=$(date +%s%N)
    ./clrscope trace report "$trace" topN -N 20 --by-line >/dev/null
    t3=$(date +%s%N)
    with+=($(((t1 - t0) / 1000000)))
    without+=($(((t2 - t1) / 1000000)))
    byline+=($(((t3 - t2) / 1000000)))
  done
  mw=$(median "${with[@]}")
  mo=$(median "${without[@]}")
  mb=$(median "${byline[@]}")
  printf '%-48s %8s  %s\n' "report topN -N 20 (median of $runs)" "ms" "runs"
  printf '%-48s %8d  %s\n' "clrscope trace report FILE topN (lines)" "$mw" "${with[*]}"
  printf '%-48s %8d  %s\n' "clrscope trace report FILE topN --no-lines" "$mo" "${without[*]}"
  printf '%-48s %8d  %s\n' "clrscope trace report FILE topN --by-line" "$mb" "${byline[*]}"
  awk -v w="$mw" -v o="$mo" -v b="$mb" 'BEGIN {
    printf "lines: %.2fx the time without them; --by-line %.2fx\n", w / o, b / o }'
  exit 0
fi

frames=$(./clrscope trace report "$trace" topN --format json | sed 's/.*"frames":\([0-9]*\).*/\1/')
samples=$(./clrscope trace report "$trace" topN --format json | sed 's/.*"samples":\([0-9]*\),.*/\1/')
echo "machine: $(nproc) cores (shared), $(java -version 2>&1 | head -1), dotnet-trace $("$dt" --version | head -1)"
echo "trace: $trace, $(du -h "$trace" | cut -f1), $samples samples, $frames stack frames"

ours=() theirs=()
for ((i = 0; i < runs; i++)); do
  t0=$(date +%s%N)
  ./clrscope trace report "$trace" topN -N 20 >/dev/null
  t1=$(date +%s%N)
  "$dt" report "$trace" topN -N 20 >/dev/null
  t2=$(date +%s%N)
  ours+=($(((t1 - t0) / 1000000)))
  theirs+=($(((t2 - t1) / 1000000)))
done
mo=$(median "${ours[@]}")
mt=$(median "${theirs[@]}")
printf '%-44s %8s  %s\n' "report topN -n 20 (median of $runs)" "ms" "runs"
printf '%-44s %8d  %s\n' "clrscope trace report FILE topN" "$mo" "${ours[*]}"
printf '%-44s %8d  %s\n' "dotnet-trace report FILE topN" "$mt" "${theirs[*]}"
awk -v f="$frames" -v ms="$mo" -v t="$mt" 'BEGIN {
  printf "clrscope: %.1f million frames named a second (two passes, whole command); %.1fx dotnet-trace\n",
    f / ms / 1000, t / ms }'
