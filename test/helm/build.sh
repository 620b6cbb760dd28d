#!/usr/bin/env bash
# Builds helm (helm.sh/helm/v3/cmd/helm) at the version test/helm/module/go.mod pins, from the Go module proxy, into
#   ${APS_HELM_DIR:-~/.cache/aps/helm}/<version>/helm
# Does nothing when that binary exists and was built from the same go.sum. Prints how long it took.
# The chart tests (HelmChartTest) look for it there; -Daps.helm.required=true makes its absence a failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mod="$here/module"
command -v go >/dev/null || { echo "helm-bin: Go is not installed (needs Go >= 1.26)" >&2; exit 2; }
version="$(sed -n 's/^require helm.sh\/helm\/v3 \(v[0-9.]*\)$/\1/p' "$mod/go.mod")"
[ -n "$version" ] || { echo "helm-bin: no 'require helm.sh/helm/v3 vX.Y.Z' line in $mod/go.mod" >&2; exit 2; }
out="${APS_HELM_DIR:-$HOME/.cache/aps/helm}/${version#v}"
stamp="$(sha256sum < "$mod/go.sum")"
if [ -x "$out/helm" ] && [ -f "$out/.built-from" ] && [ "$(cat "$out/.built-from")" = "$stamp" ]; then
  echo "helm-bin: $version ready in $out (cached)"; exit 0
fi
export GOTOOLCHAIN=local GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0
start=$(date +%s)
mkdir -p "$out"
# helm's version command reads internal/version.version; without it `helm version` prints v3.x-dev.
(cd "$mod" && nice -n 10 go build -trimpath -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$version" \
  -o "$out/helm.tmp" helm.sh/helm/v3/cmd/helm)
mv "$out/helm.tmp" "$out/helm"
echo "$stamp" > "$out/.built-from"
echo "helm-bin: built $("$out/helm" version --short) into $out in $(( $(date +%s) - start )) s"
