#!/usr/bin/env bash
# Writes N ValidatingAdmissionPolicy files into DIR for the CLI benchmark (docs/benchmark.md, CLI start-up): the
# corpus's policies (../shared/corpus/vap) in turn, each copy's metadata.name suffixed so that no two collide.
#
#   scripts/policy-files.sh /tmp/aps-1000 1000 [../shared/corpus]
set -euo pipefail
dir=${1:?usage: policy-files.sh DIR N [CORPUS]}
n=${2:?usage: policy-files.sh DIR N [CORPUS]}
corpus=${3:-$(dirname "$0")/../../shared/corpus}
[ -d "$corpus/vap" ] || { echo "policy-files.sh: no $corpus/vap (give the corpus: ../shared/corpus)" >&2; exit 2; }
mkdir -p "$dir"
mapfile -t sources < <(ls "$corpus"/vap/*.yaml | sort)
for i in $(seq 0 $((n - 1))); do
  src=${sources[$((i % ${#sources[@]}))]}
  copy=$((i / ${#sources[@]}))
  # the first metadata name (the policy's own) gets the copy's suffix
  awk -v sfx="-c$copy" 'BEGIN { done = 0 } /^  name: / && !done { if ($0 ~ /["'"'"']$/) { q = substr($0, length($0)); print substr($0, 1, length($0) - 1) sfx q } else { print $0 sfx }; done = 1; next } { print }' "$src" \
    > "$dir/$(printf '%04d' "$i")-$(basename "$src")"
done
echo "$n files in $dir"
