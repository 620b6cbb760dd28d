#!/usr/bin/env bash
# Builds promql-check (test/promql/module: Prometheus' own PromQL parser, github.com/prometheus/prometheus/promql/parser,
# at the version module/go.mod pins) from the Go module proxy into
#   ${APS_PROMQL_DIR:-~/.cache/aps/promql}/<prometheus version>/promql-check
# Does nothing when that binary exists and was built from the same go.sum. Prints how long it took.
# MonitoringQueriesTest parses every alert and dashboard expression with it; -Daps.promql.required=true makes its
# absence a failure (CI).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mod="$here/module"
. "$here/../go-tool.sh"
aps_go_init promql-check
version="$(aps_go_required "$mod/go.mod" github.com/prometheus/prometheus)"
out="${APS_PROMQL_DIR:-$HOME/.cache/aps/promql}/${version#v}"
stamp="$(cat "$mod/go.sum" "$mod/main.go" | sha256sum)"
if aps_go_cached "$out" "$stamp" promql-check; then
  echo "promql-check: prometheus $version ready in $out (cached)"; exit 0
fi
start=$(date +%s)
mkdir -p "$out"
(cd "$mod" && nice -n 10 go build -trimpath -ldflags "-s -w" -o "$out/promql-check.tmp" .)
mv "$out/promql-check.tmp" "$out/promql-check"
echo "$stamp" > "$out/.built-from"
echo "promql-check: built with prometheus $version into $out in $(( $(date +%s) - start )) s"
