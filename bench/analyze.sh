#!/usr/bin/env bash
# clrscope analyze beside dotnet-dump analyze on a full core of one TargetApp that holds N Widgets
# (40 bytes, one reference each), interleaved RUNS times, each whole process timed by /usr/bin/time
# (wall seconds and peak resident memory; medians and the fastest run printed):
#   1. dumpheap -stat                        (clrscope analyze CORE -c "dumpheap -stat")
#   2. gcroot of the middle Widget           (clrscope analyze CORE -c "gcroot ADDR")
# then the pause of the live process for dumpheap -stat (clrscope analyze -p PID), RUNS times, as
# clrscope reports it on stderr.
# Usage: bench/analyze.sh [N] [RUNS]   (after `mvn -q -DskipTests package`; dotnet-dump 10.0.750501
# on PATH or in DOTNET_DUMP: `dotnet tool install --tool-path DIR dotnet-dump --version 10.0.750501`)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000000}
runs=${2:-5}
. bench/lib.sh
widget_core "$n" full

# The middle Widget: Program.Held (a List<Widget>) -> _items -> element N/2.
json() { ./clrscope analyze "$core" --symbol-server none --format json -c "$1"; }
member() { sed -n "s/.*\"$1\":\"\\(0x[0-9a-f]*\\)\".*/\\1/p"; }
program=$(json "name2ee TargetApp.Program" | member methodTable)
held=$(json "dumpmt $program" | grep -o '"value":"0x[0-9a-f]*","name":"Held"' | member value)
items=$(json "dumpobj $held" | grep -o '"value":"0x[0-9a-f]*","name":"_items"' | member value)
widget=$(json "dumparray -start $((n / 2)) -length 1 $items" | grep -o '"value":"0x[0-9a-f]*"' | member value)

for ((i = 0; i < runs; i++)); do
  timed "$scratch/stat-ours" ./clrscope analyze "$core" --symbol-server none -c "dumpheap -stat"
  cp "$scratch/last" "$scratch/stat-ours.out"
  timed "$scratch/stat-theirs" "$dump" analyze "$core" -c "dumpheap -stat" -c exit
  cp "$scratch/last" "$scratch/stat-theirs.out"
  timed "$scratch/root-ours" ./clrscope analyze "$core" --symbol-server none -c "gcroot $widget"
  cp "$scratch/last" "$scratch/root-ours.out"
  timed "$scratch/root-theirs" "$dump" analyze "$core" -c "gcroot ${widget#0x}" -c exit
  cp "$scratch/last" "$scratch/root-theirs.out"
done
for ((i = 0; i < runs; i++)); do
  ./clrscope analyze -p "$pid" --symbol-server none -c "dumpheap -stat" 2>&1 >/dev/null |
    sed -n 's/^Process [0-9]* was paused for \([0-9.]*\) s\.$/\1/p' >>"$scratch/pauses"
done
row() { # row NAME FILE
  printf "%-52s median %6.2f s (best %6.2f s) %7.0f MB peak RSS\n" "$1" \
    "$(cut -d' ' -f1 "$2" | median)" "$(cut -d' ' -f1 "$2" | best)" \
    "$(cut -d' ' -f2 "$2" | median | awk '{print $1 / 1024}')"
}
echo "TargetApp holding $n Widgets; full core $(du -m "$core" | cut -f1) MB; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs, interleaved"
row "clrscope analyze CORE -c 'dumpheap -stat'" "$scratch/stat-ours"
row "dotnet-dump analyze CORE -c 'dumpheap -stat'" "$scratch/stat-theirs"
row "clrscope analyze CORE -c 'gcroot $widget'" "$scratch/root-ours"
row "dotnet-dump analyze CORE -c 'gcroot ${widget#0x}'" "$scratch/root-theirs"
echo "live pause (clrscope analyze -p PID -c 'dumpheap -stat'): median $(median <"$scratch/pauses") s, best $(best <"$scratch/pauses") s, all: $(tr '\n' ' ' <"$scratch/pauses")"
echo "Widgets counted: ours $(grep -o '[0-9,]*  *[0-9,]*  *TargetApp.Widget$' "$scratch/stat-ours.out" | awk '{print $1}'), dotnet-dump's $(grep 'TargetApp.Widget$' "$scratch/stat-theirs.out" | awk '{print $2}')"
