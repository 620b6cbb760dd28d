#!/usr/bin/env bash
# CLI start-up: `aps validate` over a handful of files against `aps --version`, side by side.
# Runs PAIRS interleaved pairs (version, then validate, in a fresh JVM each), prints every pair and the
# median of the per-pair ratios, so machine load hits both sides alike. docs/benchmark.md has the figures.
#
#   scripts/cli-startup.sh                       # the launcher target/aps (class-data sharing when built)
#   APS="java -jar target/aps.jar" scripts/cli-startup.sh   # the plain jar, for comparison
#   PAIRS=21 FILES="a.yaml b.yaml" scripts/cli-startup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS=${PAIRS:-11}
APS=${APS:-target/aps}
FILES=${FILES:-$(ls config/samples/*.yaml | grep -v kustomization.yaml | tr '\n' ' ')}

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }

read -r -a aps <<< "$APS"
read -r -a files <<< "$FILES"
"${aps[@]}" --version > /dev/null   # fail early if the command does not run; also warms the page cache

echo "command: $APS; files: ${#files[@]} (${FILES}); pairs: $PAIRS"
printf '%4s %10s %11s %7s\n' pair version_ms validate_ms ratio
ratios=()
for i in $(seq 1 "$PAIRS"); do
  t0=$(now); "${aps[@]}" --version > /dev/null; t1=$(now)
  "${aps[@]}" validate "${files[@]}" > /dev/null 2>&1 || true   # exit 1 is expected: a sample is unsafe
  t2=$(now)
  v=$(ms "$t0" "$t1"); w=$(ms "$t1" "$t2")
  r=$(awk -v a="$w" -v b="$v" 'BEGIN { printf "%.2f", a / b }')
  ratios+=("$r")
  printf '%4d %10d %11d %7s\n' "$i" "$v" "$w" "$r"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')
echo "median validate/version ratio: ${median}x (target: at most 3x)"
