#!/usr/bin/env bash
# The analyze model's dumpheap -stat beside dotnet-dump's, on a full core of one TargetApp that
# holds N Widgets (40 bytes, one reference each), the two interleaved RUNS times: wall time and
# peak resident memory of each whole process (median of the runs); then the pause of a live
# process for the same walk (DacHeapStat -p PID), RUNS times.
# Usage: bench/analyze.sh [N] [RUNS]   (after `mvn -q -DskipTests package`; dotnet-dump 10.0.750501
# on PATH or in DOTNET_DUMP, e.g. `dotnet tool install --tool-path DIR dotnet-dump --version 10.0.750501`)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-5000000}
runs=${2:-5}
dump=${DOTNET_DUMP:-$(command -v dotnet-dump || echo src/test/target/tools/dotnet-dump)}
app=src/test/target/apps/TargetApp/TargetApp.dll
jar=bench/target/benchmarks.jar
[ -f cli/target/clrscope.jar ] && [ -f "$jar" ] && [ -f "$app" ] && [ -x "$dump" ] || {
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
./clrscope dump -p "$pid" --type full -o "$scratch/core" >/dev/null

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
declare -a ours ours_rss theirs theirs_rss pauses
for ((i = 0; i < runs; i++)); do
  /usr/bin/time -o "$scratch/t" -f "%e %M" java -cp "$jar" dev.clrscope.bench.DacHeapStat "$scratch/core" >"$scratch/ours" 2>/dev/null
  read -r s kb <"$scratch/t"
  ours+=("$s")
  ours_rss+=("$kb")
  /usr/bin/time -o "$scratch/t" -f "%e %M" "$dump" analyze "$scratch/core" -c "dumpheap -stat" -c exit >"$scratch/theirs" 2>&1
  read -r s kb <"$scratch/t"
  theirs+=("$s")
  theirs_rss+=("$kb")
done
for ((i = 0; i < runs; i++)); do
  java -cp "$jar" dev.clrscope.bench.DacHeapStat -p "$pid" 2>&1 >/dev/null | sed -n 's/.*paused \([0-9]*\) ms/\1/p' >>"$scratch/pauses"
done
row() {
  awk -v name="$1" -v s="$2" -v kb="$3" 'BEGIN { printf "%-40s %8.2f s %8.0f MB peak RSS\n", name, s, kb / 1024 }'
}
echo "TargetApp holding $n Widgets; core $(du -m "$scratch/core" | cut -f1) MB; $(nproc) cores; median of $runs, interleaved"
row "DacHeapStat CORE (dumpheap -stat)" "$(printf '%s\n' "${ours[@]}" | median)" "$(printf '%s\n' "${ours_rss[@]}" | median)"
row "dotnet-dump analyze -c 'dumpheap -stat'" "$(printf '%s\n' "${theirs[@]}" | median)" "$(printf '%s\n' "${theirs_rss[@]}" | median)"
echo "live pause (DacHeapStat -p PID): median $(median <"$scratch/pauses") ms, all: $(tr '\n' ' ' <"$scratch/pauses")"
echo "totals: ours '$(grep '^Total' "$scratch/ours")', dotnet-dump's '$(grep '^Total' "$scratch/theirs")'"
