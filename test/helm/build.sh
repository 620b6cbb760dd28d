#!/usr/bin/env bash
# Builds helm (helm.sh/helm/v3/cmd/helm) at the version test/helm/module/go.mod pins, from the Go module proxy, into
#   ${APS_HELM_DIR:-~/.cache/aps/helm}/<version>/helm
# Does nothing when that binary exists and was built from the same go.sum. Prints how long it took.
# The chart tests (HelmChartTest) look for it there; -Daps.helm.required=true makes its absence a failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mod="$here/module"
. "$here/../go-tool.sh"
aps_go_init helm-bin
version="$(aps_go_required "$mod/go.mod" helm.sh/helm/v3)"
out="${APS_HELM_DIR:-$HOME/.cache/aps/helm}/${version#v}"
stamp="$(sha256sum < "$mod/go.sum")"
if aps_go_cached "$out" "$stamp" helm; then
  echo "helm-bin: $version ready in $out (cached)"; exit 0
fi
start=$(date +%s)
mkdir -p "$out"
# helm's version command reads internal/version.version; without it `helm version` prints v3.x-dev.
(cd "$mod" && nice -n 10 go build -trimpath -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$version" \
  -o "$out/helm.tmp" helm.sh/helm/v3/cmd/helm)
mv "$out/helm.tmp" "$out/helm"
echo "$stamp" > "$out/.built-from"
echo "helm-bin: built $("$out/helm" version --short) into $out in $(( $(date +%s) - start )) s"
