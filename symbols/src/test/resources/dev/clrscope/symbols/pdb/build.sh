#!/bin/sh
# Rebuilds the test assemblies of PortablePdbTest and PdbLocatorTest from Lines.cs: the same code
# with its PDB beside it (portable/) and inside it (embedded/). Deterministic, with the source
# directory mapped to /src/lines, so a rebuild gives the same bytes. Needs the .NET 10 SDK.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for variant in portable embedded; do
  mkdir -p "$work/$variant"
  cp "$here/Lines.cs" "$work/$variant/"
  cat > "$work/$variant/Lines.csproj" <<PROJ
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Library</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <ImplicitUsings>enable</ImplicitUsings>
    <Deterministic>true</Deterministic>
    <EnableSourceLink>false</EnableSourceLink>
    <DebugType>$variant</DebugType>
    <PathMap>\$(MSBuildProjectDirectory)=/src/lines</PathMap>
  </PropertyGroup>
</Project>
PROJ
  dotnet build "$work/$variant/Lines.csproj" -c Release -o "$work/$variant/out" -v q -tl:off --nologo
  mkdir -p "$here/$variant"
  cp "$work/$variant/out/Lines.dll" "$here/$variant/"
  if [ "$variant" = portable ]; then
    cp "$work/$variant/out/Lines.pdb" "$here/$variant/"
  fi
done
