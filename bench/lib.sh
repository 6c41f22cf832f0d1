# Sourced by the bench scripts, from the project's root: what several of them need.

# median < NUMBERS: the middle one (the mean of the two middle ones for an even count).
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# best < NUMBERS: the least.
best() { sort -n | head -1; }

# timed FILE COMMAND...: runs COMMAND under /usr/bin/time and appends "seconds kilobytes" (wall
# time, peak resident memory) to FILE; COMMAND's output is left in $scratch/last.
timed() {
  local into=$1
  shift
  /usr/bin/time -o "$scratch/t" -f "%e %M" "$@" >"$scratch/last" 2>&1 || true
  cat "$scratch/t" >>"$into"
}

# widget_core N TYPE: starts TargetApp, has it hold N Widgets (40 bytes, one reference each) in a
# static list and takes a core of it with `clrscope dump --type TYPE` (full or heap) into
# $scratch/core. Sets scratch (a temporary directory, removed on exit), pid (the app, still
# running; killed on exit), core, and dump (dotnet-dump: DOTNET_DUMP, else on PATH, else the one
# the tests install).
widget_core() {
  dump=${DOTNET_DUMP:-$(command -v dotnet-dump || echo src/test/target/tools/dotnet-dump)}
  local app=src/test/target/apps/TargetApp/TargetApp.dll
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
  echo "hold Widget $1" >&3
  until grep -q '"event":"hold"' "$scratch/out" 2>/dev/null; do sleep 0.2; done
  core="$scratch/core"
  ./clrscope dump -p "$pid" --type "$2" -o "$core" >/dev/null 2>&1
}
