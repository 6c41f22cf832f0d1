#!/usr/bin/env bash
# dump-heap side by side with dotnet-gcdump (../shared/tools/dotnet-gcdump) on one TargetApp that
# holds N objects of TYPE (Widget: 40 bytes, one reference each; Link: 24 bytes, two references
# each), the two tools interleaved, RUNS times each. Both write a .gcdump of the same process to a
# scratch directory: wall time, objects per second and peak resident memory (median of the runs),
# and the objects each file holds as clrscope reads it back.
# Usage: bench/heap.sh [N] [RUNS] [TYPE]   (after `mvn -q -DskipTests package`)
# CLRSCOPE_JAVA_OPTS (for example -Xmx1g) is passed on to clrscope.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
runs=${2:-3}
type=${3:-Widget}
gcdump=../shared/tools/dotnet-gcdump/dotnet-gcdump.dll
app=src/test/target/apps/TargetApp/TargetApp.dll
[ -f cli/target/clrscope.jar ] && [ -f "$app" ] || {
  echo "build first: mvn -q -DskipTests package" >&2
  exit 1
}
scratch=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$scratch"' EXIT
mkfifo "$scratch/in"
dotnet "$app" <"$scratch/in" >"$scratch/out" 2>&1 &
pid=$!
exec 3>"$scratch/in"
echo "hold $type $n" >&3
until grep -q '"event":"hold"' "$scratch/out" 2>/dev/null; do sleep 0.2; done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
objects() { ./clrscope dump-heap report "$1" --top 0 2>&1 | sed -n 's/.* \([0-9,]*\) objects of .*/\1/p' | tr -d ,; }
# How many of the held objects a file has (a lossy walk has fewer).
held() { ./clrscope dump-heap report "$1" --type "^TargetApp\\.$type\$" --format csv 2>/dev/null | awk -F, 'NR == 2 { print $1 }'; }
declare -a ours ours_rss theirs theirs_rss
for ((i = 0; i < runs; i++)); do
  /usr/bin/time -o "$scratch/t" -f "%e %M" ./clrscope dump-heap collect -p "$pid" -o "$scratch/c$i.gcdump" >/dev/null 2>"$scratch/c.err"
  read -r s kb <"$scratch/t"
  ours+=("$s")
  ours_rss+=("$kb")
  /usr/bin/time -o "$scratch/t" -f "%e %M" dotnet "$gcdump" collect -p "$pid" -o "$scratch/d$i.gcdump" >/dev/null 2>&1
  read -r s kb <"$scratch/t"
  theirs+=("$s")
  theirs_rss+=("$kb")
done
grep -q "walking it again" "$scratch/c.err" && echo "note: clrscope's last run walked twice (events lost with the default buffer)"
co=$(objects "$scratch/c0.gcdump")
do=$(objects "$scratch/d0.gcdump")
row() {
  local name=$1 secs=$2 kb=$3 objs=$4
  awk -v name="$name" -v s="$secs" -v kb="$kb" -v o="$objs" 'BEGIN {
    printf "%-24s %8.2f s %12d objects %10.0f objects/s %8.0f MB peak RSS\n", name, s, o, o / s, kb / 1024 }'
}
echo "TargetApp holding $n ${type}s; $(nproc) cores; median of $runs, interleaved"
row "clrscope dump-heap" "$(printf '%s\n' "${ours[@]}" | median)" "$(printf '%s\n' "${ours_rss[@]}" | median)" "$co"
row "dotnet-gcdump collect" "$(printf '%s\n' "${theirs[@]}" | median)" "$(printf '%s\n' "${theirs_rss[@]}" | median)" "$do"
for ((i = 0; i < runs; i++)); do
  echo "run $((i + 1)): $type objects in the files: clrscope $(held "$scratch/c$i.gcdump"), dotnet-gcdump $(held "$scratch/d$i.gcdump") (of $n)"
done
