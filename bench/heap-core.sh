#!/usr/bin/env bash
# clrscope dump-heap report CORE (the exact graph through the DAC: counts, sizes and retained sizes
# per type, garbage apart) beside dotnet-dump analyze CORE -c "dumpheap -stat" (counts and sizes
# only) on a heap core of one TargetApp that holds N Widgets (40 bytes, one reference each),
# interleaved RUNS times, each whole process timed by /usr/bin/time (wall seconds and peak resident
# memory; medians and the fastest run printed). clrscope runs with its Java heap capped at 2 GB
# (CLRSCOPE_JAVA_OPTS=-Xmx2g unless set), to show the graph fits in it.
# Usage: bench/heap-core.sh [N] [RUNS]   (after `mvn -q -DskipTests package`; dotnet-dump 10.0.750501
# on PATH or in DOTNET_DUMP: `dotnet tool install --tool-path DIR dotnet-dump --version 10.0.750501`)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10000000}
runs=${2:-3}
export CLRSCOPE_JAVA_OPTS=${CLRSCOPE_JAVA_OPTS:--Xmx2g}
. bench/lib.sh
widget_core "$n" heap
kill "$pid"

for ((i = 0; i < runs; i++)); do
  timed "$scratch/ours" ./clrscope dump-heap report "$core" --top 5
  cp "$scratch/last" "$scratch/ours.out"
  timed "$scratch/theirs" "$dump" analyze "$core" -c "dumpheap -stat" -c exit
  cp "$scratch/last" "$scratch/theirs.out"
done
row() { # row NAME FILE
  printf "%-58s median %6.2f s (best %6.2f s) %7.0f MB peak RSS\n" "$1" \
    "$(cut -d' ' -f1 "$2" | median)" "$(cut -d' ' -f1 "$2" | best)" \
    "$(cut -d' ' -f2 "$2" | median | awk '{print $1 / 1024}')"
}
echo "TargetApp holding $n Widgets; heap core $(du -m "$core" | cut -f1) MB; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs, interleaved"
row "clrscope dump-heap report CORE ($CLRSCOPE_JAVA_OPTS)" "$scratch/ours"
row "dotnet-dump analyze CORE -c 'dumpheap -stat'" "$scratch/theirs"
echo "ours: $(grep -m1 ' holds ' "$scratch/ours.out")"
echo "ours, Widgets: $(grep 'TargetApp.Widget$' "$scratch/ours.out" | head -1)"
echo "dotnet-dump's Widgets: $(grep 'TargetApp.Widget$' "$scratch/theirs.out" | awk '{print $2}')"
