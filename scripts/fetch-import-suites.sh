#!/usr/bin/env bash
# Brings the published suites `aps import` is measured on into a scratch folder (never committed), and records the
# commit of each: gatekeeper-library (library/), kyverno/policies, kyverno/kyverno (test/cli, test/conformance).
#
#   scripts/fetch-import-suites.sh [DEST]        default DEST: target/import-suites
#
# Sources, first found: APS_IMPORT_MIRROR/<owner>+<repo>/repo (a bare git directory, e.g. made by a snapshot
# tool), else a shallow `git clone` from GitHub. DEST/COMMITS lists "<owner>/<repo> <commit>" per suite;
# ImportSuitesTest reads DEST and prints the figures (docs/import.md).
set -euo pipefail
dest="${1:-target/import-suites}"
mirror="${APS_IMPORT_MIRROR:-/work/.mirror}"
mkdir -p "$dest"
: > "$dest/COMMITS"
fetch() { # owner/repo [paths...]
    local repo="$1"; shift
    local dir="$dest/${repo//\//+}"
    local git_dir="$mirror/${repo//\//+}/repo"
    rm -rf "$dir"; mkdir -p "$dir"
    if [ -d "$git_dir" ]; then
        git --git-dir="$git_dir" archive --format=tar HEAD "$@" | tar -x -C "$dir"
        echo "$repo $(git --git-dir="$git_dir" rev-parse HEAD)" >> "$dest/COMMITS"
    else
        local tmp; tmp="$(mktemp -d)"
        git clone --quiet --depth 1 "https://github.com/$repo" "$tmp"
        (cd "$tmp" && git archive --format=tar HEAD "$@") | tar -x -C "$dir"
        echo "$repo $(git -C "$tmp" rev-parse HEAD)" >> "$dest/COMMITS"
        rm -rf "$tmp"
    fi
}
fetch open-policy-agent/gatekeeper-library library
fetch kyverno/policies
fetch kyverno/kyverno test/cli test/conformance
cat "$dest/COMMITS"
