#!/usr/bin/env bash
# Heap snapshots side by side: `clrscope dump-heap collect` and dotnet-gcdump collect (NuGet
# 10.0.750501, installed into bench/target/dotnet-tools when missing) write a .gcdump of the same
# TargetApp process, in turns (the order swapped every turn, so that a change in the machine's load
# falls on both alike). Per tool: best and median wall time, every run, median peak RSS
# (/usr/bin/time), and how many of the held objects each file holds (read back by clrscope).
# Each heap gets a fresh process; every collect is timed, the first turn's first tool seeing the
# fresh process (each collect leaves a little behind in the target). dotnet-gcdump's time varies
# from run to run (its reader sometimes waits 5 s or its 30 s time-out for events that are there):
# compare best with best and median with median. The load average is printed before and after
# each heap: the machine is shared.
#
# Usage: bench/heap.sh [RUNS] [HEAP...]   (after `mvn -q -DskipTests package`; RUNS default 5)
#   HEAP: w100k (hold Widget 100000), w300k (hold Widget 300000), c5m (hold-chunks 5000 1000:
#   5,000 object[1000], each slot a Cell of its own); default all three. a123k: the app of
#   ../shared/fixtures/gcdump/apps/widget (123,457 Widgets without references in one static
#   array; built into bench/target/widget-app when missing), the case issue 28 measured first.
# Environment: BEFORE=path/to/an/other/clrscope adds that launcher as a third tool (a build from
#   before a change); GCDUMP=path/to/dotnet-gcdump replaces the NuGet tool (for example
#   ../shared/tools/dotnet-gcdump/dotnet-gcdump); CLRSCOPE_JAVA_OPTS is passed on to clrscope.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
heaps=("$@")
[ ${#heaps[@]} -gt 0 ] || heaps=(w100k w300k c5m)
app=src/test/target/apps/TargetApp/TargetApp.dll
[ -f cli/target/clrscope.jar ] && [ -f "$app" ] || {
  echo "build first: mvn -q -DskipTests package" >&2
  exit 1
}
tools_dir=bench/target/dotnet-tools
gcdump=${GCDUMP:-$tools_dir/dotnet-gcdump}
if [ -z "${GCDUMP:-}" ] && [ ! -x "$gcdump" ]; then
  dotnet tool install --tool-path "$tools_dir" dotnet-gcdump --version 10.0.750501 >/dev/null
fi

scratch=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  exec 3>&- 2>/dev/null || true
  rm -rf "$scratch"
}
trap cleanup EXIT

# start COMMAND...: a fresh TargetApp holding what COMMAND makes it hold ("fixture": the fixture's
# widget app instead).
start() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  exec 3>&- 2>/dev/null || true
  rm -f "$scratch/in" "$scratch/out"
  if [ "$1" = fixture ]; then
    widget=bench/target/widget-app/WidgetApp.dll
    if [ ! -f "$widget" ]; then
      dotnet build ../shared/fixtures/gcdump/apps/widget -c Release -o bench/target/widget-app \
        --nologo -v quiet >/dev/null
    fi
    dotnet "$widget" 3600 >"$scratch/out" 2>&1 &
    pid=$!
    until grep -q '^ready' "$scratch/out" 2>/dev/null; do sleep 0.2; done
    return
  fi
  mkfifo "$scratch/in"
  dotnet "$app" <"$scratch/in" >"$scratch/out" 2>&1 &
  pid=$!
  exec 3>"$scratch/in"
  echo "$*" >&3
  until grep -q '"event":"hold' "$scratch/out" 2>/dev/null; do sleep 0.2; done
}

names=(clrscope dotnet-gcdump)
commands=("./clrscope dump-heap collect -p PID -o FILE" "$gcdump collect -p PID -o FILE")
if [ -n "${BEFORE:-}" ]; then
  names+=("clrscope-before")
  commands+=("$BEFORE dump-heap collect -p PID -o FILE")
fi

# collect TOOL RUN: one collect with tool TOOL into $scratch/TOOL-RUN.gcdump; prints "secs kb".
collect() {
  local cmd=${commands[$1]//PID/$pid}
  cmd=${cmd//FILE/$scratch/$1-$2.gcdump}
  # shellcheck disable=SC2086 # the command is words
  /usr/bin/time -o "$scratch/t" -f "%e %M" $cmd >/dev/null 2>"$scratch/err-$1-$2" || {
    echo "FAILED" >"$scratch/t"
    tail -3 "$scratch/err-$1-$2" >&2
  }
  cat "$scratch/t"
}

. bench/lib.sh
# held FILE TYPE: how many objects of TYPE the file holds, as clrscope reads it back.
held() {
  ./clrscope dump-heap report "$1" --type "^${2//./\\.}\$" --format csv 2>/dev/null |
    awk -F, 'NR == 2 { print $1 }'
}

echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), $(dotnet --list-runtimes | grep NETCore.App | tail -1)"
echo "dotnet-gcdump: $gcdump ($("$gcdump" --version 2>/dev/null | head -1))"
for heap in "${heaps[@]}"; do
  case $heap in
    w100k) hold=(hold Widget 100000) type=TargetApp.Widget held_count=100000 ;;
    w300k) hold=(hold Widget 300000) type=TargetApp.Widget held_count=300000 ;;
    c5m) hold=(hold-chunks 5000 1000) type=TargetApp.Cell held_count=5000000 ;;
    a123k) hold=(fixture) type=Widget held_count=123457 ;;
    *)
      echo "unknown heap $heap (w100k, w300k, c5m, a123k)" >&2
      exit 2
      ;;
  esac
  start "${hold[@]}"
  echo
  what="TargetApp '${hold[*]}'"
  [ "${hold[0]}" = fixture ] && what="the fixtures' widget app"
  echo "== $what (pid $pid), $runs turns; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  declare -A secs=() kb=()
  for ((i = 0; i < runs; i++)); do
    order=("${!names[@]}")
    if ((i % 2)); then
      order=()
      for ((k = ${#names[@]} - 1; k >= 0; k--)); do order+=("$k"); done
    fi
    for t in "${order[@]}"; do
      read -r s m < <(collect "$t" "$i")
      secs[$t]+="$s "
      kb[$t]+="$m "
    done
  done
  objects=$(./clrscope dump-heap report "$scratch/0-0.gcdump" --top 1 2>&1 | sed -n 's/.* holds \([0-9,]*\) objects.*/\1/p')
  printf '%-16s %7s %7s  %-44s %9s  %s\n' tool best median "runs (s)" "peak RSS" "$type in each file (of $held_count)"
  for t in "${!names[@]}"; do
    runs_s=$(echo "${secs[$t]}" | tr ' ' '\n' | grep -v '^$' | tr '\n' ' ')
    counts=""
    for ((i = 0; i < runs; i++)); do counts+="$(held "$scratch/$t-$i.gcdump" "$type") "; done
    printf '%-16s %7s %7s  %-44s %6.0f MB  %s\n' "${names[$t]}" \
      "$(echo "${secs[$t]}" | tr ' ' '\n' | grep -v '^$' | best)" \
      "$(echo "${secs[$t]}" | tr ' ' '\n' | grep -v '^$' | median)" \
      "$runs_s" \
      "$(echo "${kb[$t]}" | tr ' ' '\n' | grep -v '^$' | median | awk '{print $1 / 1024}')" \
      "$counts"
  done
  awk -v a="$(echo "${secs[0]}" | tr ' ' '\n' | grep -v '^$' | best)" \
    -v b="$(echo "${secs[1]}" | tr ' ' '\n' | grep -v '^$' | best)" \
    -v c="$(echo "${secs[0]}" | tr ' ' '\n' | grep -v '^$' | median)" \
    -v d="$(echo "${secs[1]}" | tr ' ' '\n' | grep -v '^$' | median)" \
    'BEGIN { printf "clrscope / dotnet-gcdump: best %.2fx, median %.2fx\n", a / b, c / d }'
  echo "objects in clrscope's first file: $objects; turn 1 began with ${names[0]} on the fresh process"
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  unset secs kb
  rm -f "$scratch"/*.gcdump
done
