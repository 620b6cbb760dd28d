#!/usr/bin/env bash
# Fetches pod-security-admission's own fixtures (k8s.io/pod-security-admission, test/testdata: the pods PSA's
# TestFixtures generates per level and version, v1.0 to the module's newest) from the Go module proxy, and PSA's own
# verdict on each of them, into
#   ${APS_PSA_DIR:-~/.cache/aps/psa}/<module version>/testdata/<level>/v1.<minor>/{pass,fail}/*.yaml
#   ${APS_PSA_DIR:-~/.cache/aps/psa}/<module version>/verdicts.json   (test/psa/module: which checks fail each fixture)
# The module version is the one test/psa/module/go.mod requires (the newest Kubernetes of test/kube/versions); go
# verifies the download against go.sum. PodSecurityFixturesTest runs policies/pod-security/ on these; without them it
# skips, and fails with -Daps.psa.required=true (CI). Not committed: the project does not carry upstream files.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mod="$here/module"
. "$here/../go-tool.sh"
aps_go_init psa
version="$(aps_go_required "$mod/go.mod" k8s.io/pod-security-admission)"
out="${APS_PSA_DIR:-$HOME/.cache/aps/psa}/$version"
stamp="$(cat "$mod/go.mod" "$mod/go.sum" "$mod/main.go" | sha256sum)"
if aps_go_cached "$out" "$stamp" verdicts.json; then
  echo "psa: pod-security-admission $version fixtures and verdicts ready in $out (cached)"; exit 0
fi
start=$(date +%s)
src="$(cd "$mod" && go list -m -f '{{.Dir}}' k8s.io/pod-security-admission)"
if [ -z "$src" ] || [ ! -d "$src/test/testdata" ]; then
  (cd "$mod" && go mod download k8s.io/pod-security-admission)
  src="$(cd "$mod" && go list -m -f '{{.Dir}}' k8s.io/pod-security-admission)"
fi
[ -d "$src/test/testdata" ] || { echo "psa: $src has no test/testdata" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
cp -r "$src/test/testdata" "$out/testdata" && chmod -R u+w "$out/testdata"
(cd "$mod" && nice -n 10 go build -trimpath -o "$out/psa-verdicts" .)
"$out/psa-verdicts" "$out/testdata" > "$out/verdicts.json.tmp"
mv "$out/verdicts.json.tmp" "$out/verdicts.json"
printf 'k8s.io/pod-security-admission %s (test/testdata; verdicts from its policy package)\n' "$version" > "$out/SOURCE"
echo "$stamp" > "$out/.built-from"
echo "psa: pod-security-admission $version: $(find "$out/testdata" -name '*.yaml' | wc -l) fixtures and PSA's verdicts in $out in $(( $(date +%s) - start )) s"
