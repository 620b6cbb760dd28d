#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kubectl and etcd of one Kubernetes release from the Go module proxy, through the
# wrapper modules in test/kube/v<version>/ (see gen-modules.sh), into
#   ${APS_KUBE_DIR:-~/.cache/aps/kube}/<version>/
# Does nothing when the binaries there already report that version. Prints how long it took.
#   test/kube/build.sh [X.Y.Z]      (default: the newest supported version, test/kube/versions first line)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="${1:-$(head -n1 "$here/versions")}"
mods="$here/v$version"
[ -d "$mods/apiserver" ] && [ -d "$mods/etcd" ] || {
  echo "kube-bins: no wrapper modules for $version in $mods (supported: $(tr '\n' ' ' < "$here/versions"))" >&2; exit 2; }
. "$here/../go-tool.sh"
aps_go_init kube-bins

out="${APS_KUBE_DIR:-$HOME/.cache/aps/kube}/$version"
# kube-controller-manager runs only the controllers the tests need (garbage collector, the VAP type-checking
# status, namespaces): without it owner references, status.typeChecking and namespace deletion do nothing.
bins="kube-apiserver kube-controller-manager kubectl etcd"
have() {
  for b in $bins; do [ -x "$out/$b" ] || return 1; done
  [ "$("$out/kube-apiserver" --version 2>/dev/null)" = "Kubernetes v$version" ] &&
    [ -f "$out/.built-from" ] && [ "$(cat "$out/.built-from")" = "$(cat "$mods"/*/go.sum | sha256sum)" ]
}
if have; then echo "kube-bins: $version ready in $out (cached)"; exit 0; fi

start=$(date +%s)
mkdir -p "$out"
minor="${version#*.}"; minor="${minor%%.*}"
commit=$(cd "$mods/apiserver" && go mod download -json "k8s.io/kubernetes@v$version" |
  sed -n 's/.*"Hash": *"\([0-9a-f]*\)".*/\1/p' | head -n1)
ld="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  # /version and the feature-gate defaults read these: without them gitVersion is v0.0.0-master+$Format:%H$.
  ld="$ld -X $p.gitVersion=v$version -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
  ld="$ld -X $p.gitCommit=${commit:-unknown} -X $p.buildDate=1970-01-01T00:00:00Z"
done
tags=selinux,notest,grpcnotrace
build() { # dir binary package [flags...]
  local dir=$1 bin=$2 pkg=$3; shift 3
  if [ -x "$out/$bin" ] && [ -f "$out/.built-from" ] && [ "$(cat "$out/.built-from")" = "$(cat "$mods"/*/go.sum | sha256sum)" ]; then
    return 0
  fi
  local t0; t0=$(date +%s)
  (cd "$dir" && go build -trimpath "$@" -o "$out/$bin.tmp" "$pkg")
  mv "$out/$bin.tmp" "$out/$bin"
  echo "kube-bins: $bin in $(( $(date +%s) - t0 )) s"
}
build "$mods/apiserver" kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver -tags=$tags -ldflags "$ld"
build "$mods/apiserver" kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager -tags=$tags -ldflags "$ld"
build "$mods/apiserver" kubectl k8s.io/kubernetes/cmd/kubectl -tags=$tags -ldflags "$ld"
build "$mods/etcd" etcd go.etcd.io/etcd/server/v3 -ldflags "-s -w"
cat "$mods"/*/go.sum | sha256sum > "$out/.built-from"
got="$("$out/kube-apiserver" --version)"
[ "$got" = "Kubernetes v$version" ] || { echo "kube-bins: built kube-apiserver says '$got'" >&2; exit 1; }
echo "kube-bins: built $version into $out in $(( $(date +%s) - start )) s ($("$out/etcd" --version | head -n1))"
