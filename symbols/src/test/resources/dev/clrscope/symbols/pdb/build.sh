#!/bin/sh
# Rebuilds the test assemblies of PortablePdbTest and PdbLocatorTest from Lines.cs: the same code
# with its PDB beside it (portable/) and inside it (embedded/), and other/Lines.pdb, the PDB of
# another build (Lines.cs and one more comment line: another id). Deterministic, with the source
# directory mapped to /src/lines, so a rebuild gives the same bytes. Needs the .NET 10 SDK.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for variant in portable embedded other; do
  mkdir -p "$work/$variant"
  cp "$here/Lines.cs" "$work/$variant/"
  debug=$variant
  if [ "$variant" = other ]; then
    echo "// another build" >> "$work/$variant/Lines.cs"
    debug=portable
  fi
  cat > "$work/$variant/Lines.csproj" <<PROJ
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Library</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <ImplicitUsings>enable</ImplicitUsings>
    <Deterministic>true</Deterministic>
    <EnableSourceLink>false</EnableSourceLink>
    <DebugType>$debug</DebugType>
    <PathMap>\$(MSBuildProjectDirectory)=/src/lines</PathMap>
  </PropertyGroup>
</Project>
PROJ
  dotnet build "$work/$variant/Lines.csproj" -c Release -o "$work/$variant/out" -v q -tl:off --nologo
  mkdir -p "$here/$variant"
  if [ "$variant" != other ]; then
    cp "$work/$variant/out/Lines.dll" "$here/$variant/"
  fi
  if [ "$variant" != embedded ]; then
    cp "$work/$variant/out/Lines.pdb" "$here/$variant/"
  fi
done
