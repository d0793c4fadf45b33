#!/usr/bin/env bash
# The commands of .github/workflows/corpus-verify.yml, in one place for CI and for a run on one machine:
# the whole GraphNet corpus verified with the default pipeline as N shards, merged by drrc report
# (docs/verify.md, "On many machines"). drrcli's TestCorpusVerifyWorkflow checks that the workflow calls these
# subcommands with a matrix of shards 1..N, and runs the drrc command lines below in-process.
#
#   corpus-verify.sh fetch DIR              clone GraphNet's paddle_samples at the pinned commit into DIR
#   corpus-verify.sh shard K N CORPUS OUT   run shard K of N (K from 1): OUT/results-K.jsonl, OUT/verify-K.log
#   corpus-verify.sh merge CORPUS OUT       merge OUT/results-*.jsonl: OUT/report.txt, OUT/report.json, OUT/report.html
#   corpus-verify.sh local N CORPUS OUT     every shard on this machine, $JOBS at a time (default 2), then merge
#
# DRRC names the drrc binary (default: drrc on PATH). A shard exits 0 when its programs were verified, whether they
# agree or not (the merged report says which), and fails on a usage error or a crash; merge fails on a gap or a
# duplicate record.
set -euo pipefail

# GraphNet at the commit the shared corpus was copied from (PaddlePaddle/GraphNet "Opt agent (#717)", 2026-05-22).
GRAPHNET_REPO=${GRAPHNET_REPO:-https://github.com/PaddlePaddle/GraphNet} # a mirror may stand in
GRAPHNET_COMMIT=1dcbd6690d80e6343bbd9fd3ea01aed97f5ca616
DRRC=${DRRC:-drrc}

usage() {
  sed -n '7,10p' "$0" >&2
  exit 2
}

fetch() {
  local dir=$1
  git init -q "$dir"
  git -C "$dir" remote add origin "$GRAPHNET_REPO"
  git -C "$dir" sparse-checkout set paddle_samples
  git -C "$dir" fetch -q --depth 1 --filter=blob:none origin "$GRAPHNET_COMMIT"
  git -C "$dir" checkout -q FETCH_HEAD
  test "$(git -C "$dir" rev-parse HEAD)" = "$GRAPHNET_COMMIT"
}

shard() {
  local k=$1 n=$2 corpus=$3 out=$4 status=0
  mkdir -p "$out"
  touch "$out/results-$k.jsonl" # a shard without programs still leaves its (empty) file
  "$DRRC" verify -shard "$k/$n" -results "$out/results-$k.jsonl" "$corpus" >"$out/verify-$k.log" 2>&1 || status=$?
  if [ "$status" -gt 1 ]; then
    tail -n 20 "$out/verify-$k.log" >&2
    return "$status"
  fi
}

merge() {
  local corpus=$1 out=$2 status=0
  # The table is written even when the merge finds a gap; the status says so after the three reports.
  "$DRRC" report -expect "$corpus" "$out"/results-*.jsonl >"$out/report.txt" || status=$?
  "$DRRC" report -json "$out"/results-*.jsonl >"$out/report.json" || true
  "$DRRC" report -html "$out"/results-*.jsonl >"$out/report.html" || true
  return "$status"
}

local_run() {
  local n=$1 corpus=$2 out=$3
  export DRRC
  seq 1 "$n" | xargs -P "${JOBS:-2}" -I{} "$0" shard {} "$n" "$corpus" "$out"
  merge "$corpus" "$out"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
fetch) [ $# -eq 1 ] || usage; fetch "$@" ;;
shard) [ $# -eq 4 ] || usage; shard "$@" ;;
merge) [ $# -eq 2 ] || usage; merge "$@" ;;
local) [ $# -eq 3 ] || usage; local_run "$@" ;;
*) usage ;;
esac
