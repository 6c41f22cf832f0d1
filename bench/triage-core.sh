#!/usr/bin/env bash
# clrscope triage CORE (every finding: threads, locks, the thread pool, the finalizer, exceptions,
# timers, and the exact heap graph for leak suspects and waste) beside what a user would otherwise
# run first, dotnet-dump analyze CORE -c "dumpheap -stat" -c syncblk -c "clrstack -all" -c
# threadpool -c exit, on a heap core of one TargetApp that holds N Widgets (40 bytes, one reference
# each), interleaved RUNS times, each whole process timed by /usr/bin/time (wall seconds and peak
# resident memory; medians and the fastest run printed). clrscope runs with its Java heap capped at
# 2 GB (CLRSCOPE_JAVA_OPTS=-Xmx2g unless set).
# Usage: bench/triage-core.sh [N] [RUNS]   (after `mvn -q -DskipTests package`; dotnet-dump
# 10.0.750501 on PATH or in DOTNET_DUMP: `dotnet tool install --tool-path DIR dotnet-dump --version
# 10.0.750501`)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000000}
runs=${2:-5}
export CLRSCOPE_JAVA_OPTS=${CLRSCOPE_JAVA_OPTS:--Xmx2g}
. bench/lib.sh
widget_core "$n" heap
kill "$pid"

for ((i = 0; i < runs; i++)); do
  timed "$scratch/ours" ./clrscope triage "$core" --symbol-server none
  cp "$scratch/last" "$scratch/ours.out"
  timed "$scratch/theirs" "$dump" analyze "$core" -c "dumpheap -stat" -c syncblk \
    -c "clrstack -all" -c threadpool -c exit
  cp "$scratch/last" "$scratch/theirs.out"
  # Where triage's time goes: the exact heap graph (dump-heap report reads the same), the rest.
  timed "$scratch/report" ./clrscope dump-heap report "$core" --top 5
  timed "$scratch/noheap" ./clrscope triage "$core" --no-heap --symbol-server none
done
row() { # row NAME FILE
  printf "%-62s median %6.2f s (best %6.2f s) %7.0f MB peak RSS\n" "$1" \
    "$(cut -d' ' -f1 "$2" | median)" "$(cut -d' ' -f1 "$2" | best)" \
    "$(cut -d' ' -f2 "$2" | median | awk '{print $1 / 1024}')"
}
echo "TargetApp holding $n Widgets; heap core $(du -m "$core" | cut -f1) MB; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs, interleaved"
row "clrscope triage CORE ($CLRSCOPE_JAVA_OPTS)" "$scratch/ours"
row "dotnet-dump analyze CORE -c 'dumpheap -stat' -c syncblk ..." "$scratch/theirs"
row "clrscope dump-heap report CORE (the same heap graph)" "$scratch/report"
row "clrscope triage CORE --no-heap" "$scratch/noheap"
echo "ours: $(grep -m1 '^Findings' "$scratch/ours.out"); $(grep -m1 '^Heap' "$scratch/ours.out")"
echo "ours, the suspect: $(grep -m1 -A1 'leak-suspect' "$scratch/ours.out" | tail -1)"
echo "dotnet-dump's Widgets: $(grep 'TargetApp.Widget$' "$scratch/theirs.out" | awk '{print $2}')"
echo "times (s): ours $(cut -d' ' -f1 "$scratch/ours" | tr '\n' ' ')| theirs $(cut -d' ' -f1 "$scratch/theirs" | tr '\n' ' ')"
