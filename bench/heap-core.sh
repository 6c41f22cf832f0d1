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
dump=${DOTNET_DUMP:-$(command -v dotnet-dump || echo src/test/target/tools/dotnet-dump)}
app=src/test/target/apps/TargetApp/TargetApp.dll
[ -f cli/target/clrscope.jar ] && [ -f "$app" ] && [ -x "$dump" ] || {
  echo "build first (mvn -q -DskipTests package) and install dotnet-dump" >&2
  exit 1
}
scratch=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$scratch"' EXIT
mkfifo "$scratch/in"
dotnet "$app" <"$scratch/in" >"$scratch/out" 2>&1 &
pid=$!
exec 3>"$scratch/in"
echo "hold Widget $n" >&3
until grep -q '"event":"hold"' "$scratch/out" 2>/dev/null; do sleep 0.2; done
core="$scratch/core"
./clrscope dump -p "$pid" --type heap -o "$core" >/dev/null 2>&1
kill "$pid"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
best() { sort -n | head -1; }
timed() { # timed FILE COMMAND...: appends "seconds kilobytes" to FILE
  local into=$1
  shift
  /usr/bin/time -o "$scratch/t" -f "%e %M" "$@" >"$scratch/last" 2>&1 || true
  cat "$scratch/t" >>"$into"
}
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
