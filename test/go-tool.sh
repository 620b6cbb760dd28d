# Sourced by the scripts that build or fetch a test tool from the Go module proxy into ~/.cache/aps/<tool>/<version>
# (test/kube/build.sh, test/helm/build.sh, test/promql/build.sh, test/psa/fetch.sh): the checks and the build
# environment they share. Each tool is cached by version and by a stamp of the files it was built from.

# aps_go_init LABEL: exits 2 when Go is missing; sets the build environment (the local toolchain only, no VCS
# stamping, go.sum as it is, static binaries). LABEL prefixes every message.
aps_go_init() {
  aps_go_label=$1
  command -v go >/dev/null || { echo "$aps_go_label: Go is not installed (needs Go >= 1.26)" >&2; exit 2; }
  export GOTOOLCHAIN=local GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0
}

# aps_go_required GO_MOD MODULE: prints the version GO_MOD requires of MODULE (one-line or block require), or exits 2.
aps_go_required() {
  local version
  version="$(sed -n "s#^[[:space:]]*\(require \)\{0,1\}$2 \(v[0-9.]*\)\$#\2#p" "$1" | head -n1)"
  [ -n "$version" ] || { echo "$aps_go_label: no '$2 vX.Y.Z' requirement in $1" >&2; exit 2; }
  echo "$version"
}

# aps_go_cached OUT STAMP FILE: true when OUT/FILE exists and OUT was built from STAMP (OUT/.built-from).
aps_go_cached() {
  [ -e "$1/$3" ] && [ "$(cat "$1/.built-from" 2>/dev/null)" = "$2" ]
}
