#!/usr/bin/env bash
# Fetches the OpenReports CRDs (reports.openreports.io, clusterreports.openreports.io) that `aps impact --output
# openreports` and the operator's policy reports are checked against, from the Go module proxy (the module
# github.com/openreports/reports-api carries them in config/crd/), into
#   ${APS_OPENREPORTS_DIR:-~/.cache/aps/openreports}/<version>/
# The version is pinned below, with the commit its tag names and the module's checksum: the proxy's copy must match
# that checksum (go verifies it against sum.golang.org), so what the tests read is what upstream published.
# Not committed: the project does not carry upstream files (OpenReportsSchemaTest reads them from the cache).
set -euo pipefail
version=v0.2.1
commit=b7afe2eae0fdc4aa8df7252d56dbf1b191152cbd   # git rev-list -n1 v0.2.1 in github.com/openreports/reports-api
sum='h1:g9KS3yle9Y1elmww4TK9EkD1rl6inIaiIJPX6e+u680='
out="${APS_OPENREPORTS_DIR:-$HOME/.cache/aps/openreports}/$version"
if [ -f "$out/openreports.io_reports.yaml" ] && [ -f "$out/openreports.io_clusterreports.yaml" ] && \
   grep -qx "$sum" "$out/.module-sum" 2>/dev/null; then
  echo "openreports-crds: $version ready in $out (cached)"; exit 0
fi
command -v go >/dev/null || { echo "openreports-crds: Go is not installed (it downloads the module)" >&2; exit 2; }
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
info="$(cd "$(mktemp -d)" && go mod download -json "github.com/openreports/reports-api@$version")"
dir="$(printf '%s\n' "$info" | sed -n 's/.*"Dir": *"\([^"]*\)".*/\1/p')"
got="$(printf '%s\n' "$info" | sed -n 's/.*"Sum": *"\([^"]*\)".*/\1/p')"
[ "$got" = "$sum" ] || { echo "openreports-crds: module checksum $got, expected $sum" >&2; exit 1; }
mkdir -p "$out"
cp "$dir/config/crd/openreports.io_reports.yaml" "$dir/config/crd/openreports.io_clusterreports.yaml" "$out/"
chmod u+w "$out"/*.yaml
printf '%s\n' "$sum" > "$out/.module-sum"
printf 'github.com/openreports/reports-api %s (commit %s)\n' "$version" "$commit" > "$out/SOURCE"
echo "openreports-crds: $version (commit $commit) in $out"
