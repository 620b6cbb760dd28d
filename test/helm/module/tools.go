//go:build tools

// Package tools pins helm for test/helm/build.sh: `go build helm.sh/helm/v3/cmd/helm` in this module builds the
// version go.mod requires, with go.sum's checksums.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
