#!/usr/bin/env bash
# Writes the wrapper Go modules that build one Kubernetes release's kube-apiserver, kubectl and etcd
# from the Go module proxy: test/kube/v<version>/{apiserver,etcd}/go.mod + go.sum.
#
# k8s.io/kubernetes requires its staging modules at v0.0.0 and maps them to ./staging with replace
# directives, which a dependent module cannot use (kubernetes/kubernetes#79384). The wrapper replaces
# each of them with the published v0.<minor>.<patch>. etcd gets its own module, at the version the
# release's go.mod requires, so it links etcd's own dependency versions, not the apiserver graph's.
#
# Run once per new supported version and commit the result (never `go get -u` in these modules:
# newer kube-openapi / structured-merge-diff pseudo-versions need a newer Go).
#   test/kube/gen-modules.sh 1.37.2
set -euo pipefail
version="${1:?usage: gen-modules.sh X.Y.Z}"
here="$(cd "$(dirname "$0")" && pwd)"
export GOTOOLCHAIN=local GOFLAGS=-buildvcs=false CGO_ENABLED=0
minor="${version#*.}"; minor="${minor%%.*}"; patch="${version##*.}"

upstream_mod="$(go mod download -json "k8s.io/kubernetes@v$version" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')"
[ -f "$upstream_mod" ] || { echo "cannot download k8s.io/kubernetes@v$version" >&2; exit 1; }
staging=$(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" {print $1}' "$upstream_mod")
etcd_version=$(awk '$1 == "go.etcd.io/etcd/server/v3" {print $2}' "$upstream_mod")
go_line=$(awk '$1 == "go" {print $2; exit}' "$upstream_mod")

dir="$here/v$version/apiserver"
rm -rf "$dir"; mkdir -p "$dir"
cd "$dir"
go mod init kubebins.invalid/apiserver >/dev/null 2>&1
go mod edit -go="$go_line"
if grep -q '^godebug' "$upstream_mod"; then
  go mod edit -godebug="$(awk '$1 == "godebug" {print $2; exit}' "$upstream_mod")"
fi
go mod edit -require="k8s.io/kubernetes@v$version"
for m in $staging; do go mod edit -replace="$m=$m@v0.$minor.$patch"; done
go mod edit -tool=k8s.io/kubernetes/cmd/kube-apiserver -tool=k8s.io/kubernetes/cmd/kube-controller-manager \
  -tool=k8s.io/kubernetes/cmd/kubectl
go mod tidy
echo "$dir: $(echo "$staging" | wc -w) staging modules replaced at v0.$minor.$patch"

dir="$here/v$version/etcd"
rm -rf "$dir"; mkdir -p "$dir"
cd "$dir"
go mod init kubebins.invalid/etcd >/dev/null 2>&1
go mod edit -go="$go_line"
go mod edit -require="go.etcd.io/etcd/server/v3@$etcd_version"
go mod edit -tool=go.etcd.io/etcd/server/v3
go mod tidy
echo "$dir: etcd $etcd_version"
