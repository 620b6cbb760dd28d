#!/usr/bin/env bash
# Fetches the published CRDs of the APIs the project writes objects of but does not own, from the Go module proxy
# (each upstream Go module carries its CRD YAML), into
#   ${APS_CRDS_DIR:-~/.cache/aps/crds}/<name>/<version>/
#   openreports          reports / clusterreports.openreports.io: aps impact --output openreports, the operator's
#                        policy reports (OpenReportsRealServerTest, PolicyReportsRealServerTest)
#   prometheus-operator  servicemonitors / prometheusrules.monitoring.coreos.com: config/prometheus and the chart's
#                        metrics toggles (MonitoringObjectsRealServerTest)
# Each version is pinned below with the commit its tag names and the module checksum; the proxy's copy must match
# that checksum (go verifies it against sum.golang.org), so the tests read what upstream published. Not committed:
# the project does not carry upstream files.
#   test/crds/fetch.sh [NAME...]     (default: all)
set -euo pipefail
# name | module | version | commit of the tag | module checksum | directory in the module | files
table='openreports|github.com/openreports/reports-api|v0.2.1|b7afe2eae0fdc4aa8df7252d56dbf1b191152cbd|h1:g9KS3yle9Y1elmww4TK9EkD1rl6inIaiIJPX6e+u680=|config/crd|openreports.io_reports.yaml openreports.io_clusterreports.yaml
prometheus-operator|github.com/prometheus-operator/prometheus-operator|v0.85.0|2ed4172b180213b6082025237bb0c155b74b6080|h1:M5xLCLEoaW2IJfnuCwFzzpL+jSVQu3KGT84Pye+fW8s=|example/prometheus-operator-crd|monitoring.coreos.com_servicemonitors.yaml monitoring.coreos.com_prometheusrules.yaml'
wanted="${*:-openreports prometheus-operator}"
for name in $wanted; do
  row="$(printf '%s\n' "$table" | grep "^$name|")" || { echo "crds: unknown '$name' (known: openreports prometheus-operator)" >&2; exit 2; }
  IFS='|' read -r _ module version commit sum dir files <<< "$row"
  out="${APS_CRDS_DIR:-$HOME/.cache/aps/crds}/$name/$version"
  have=yes
  for f in $files; do [ -f "$out/$f" ] || have=no; done
  if [ $have = yes ] && grep -qx "$sum" "$out/.module-sum" 2>/dev/null; then
    echo "crds: $name $version ready in $out (cached)"; continue
  fi
  command -v go >/dev/null || { echo "crds: Go is not installed (it downloads the module)" >&2; exit 2; }
  info="$(cd "$(mktemp -d)" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "$module@$version")"
  src="$(printf '%s\n' "$info" | sed -n 's/.*"Dir": *"\([^"]*\)".*/\1/p')"
  got="$(printf '%s\n' "$info" | sed -n 's/.*"Sum": *"\([^"]*\)".*/\1/p')"
  [ "$got" = "$sum" ] || { echo "crds: $module@$version checksum $got, expected $sum" >&2; exit 1; }
  mkdir -p "$out"
  for f in $files; do cp "$src/$dir/$f" "$out/"; chmod u+w "$out/$f"; done
  printf '%s\n' "$sum" > "$out/.module-sum"
  printf '%s %s (commit %s)\n' "$module" "$version" "$commit" > "$out/SOURCE"
  echo "crds: $name $version (commit $commit) in $out"
done
