#!/usr/bin/env bash
# dump-heap side by side with dotnet-gcdump (../shared/tools/dotnet-gcdump) on one TargetApp that
# holds N Widgets (plus its own objects): wall time of a whole snapshot, median of RUNS each, the
# two tools interleaved. dotnet-gcdump writes its .gcdump to a scratch directory; clrscope prints
# its per-type report to /dev/null.
# Usage: bench/heap.sh [N] [RUNS]   (after `mvn -q -DskipTests package`)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-1000000}
runs=${2:-5}
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
echo "hold Widget $n" >&3
until grep -q '"event":"hold"' "$scratch/out" 2>/dev/null; do sleep 0.2; done

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
declare -a ours theirs
for ((i = 0; i < runs; i++)); do
  /usr/bin/time -o "$scratch/t" -f "%e" ./clrscope dump-heap -p "$pid" --top 0 >/dev/null 2>&1
  ours+=("$(tail -1 "$scratch/t")")
  /usr/bin/time -o "$scratch/t" -f "%e" dotnet "$gcdump" collect -p "$pid" -o "$scratch/h$i.gcdump" >/dev/null 2>&1
  theirs+=("$(tail -1 "$scratch/t")")
done
echo "TargetApp holding $n Widgets; $(nproc) cores; median of $runs, interleaved"
printf '%-36s %7.2f s\n' "clrscope dump-heap" "$(printf '%s\n' "${ours[@]}" | median)"
printf '%-36s %7.2f s\n' "dotnet-gcdump collect" "$(printf '%s\n' "${theirs[@]}" | median)"
