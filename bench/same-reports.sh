#!/usr/bin/env bash
# Do two memval binaries write the same reports? For a restructuring that must change no verdict.
#
#   bash bench/same-reports.sh OLD NEW OUTDIR REPO MEMORIES [more validate flags]
#
# Runs `validate --repo REPO --memories MEMORIES` with each binary in every format (json, sarif,
# table, md), each with a fresh store, and compares the reports and the stderr plus exit code
# after masking what differs between any two runs of one binary: run ids, RFC 3339 times,
# durations and the store path. Prints one line per format; exits 1 when any differs (the
# first differing lines are shown), 0 when all are identical. The reports stay in OUTDIR.
set -uo pipefail
if (($# < 5)); then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
old=$1 new=$2 out=$3 repo=$4 mem=$5
shift 5
mkdir -p "$out"
stores=$(mktemp -d)
trap 'rm -rf "$stores"' EXIT
mask() {
  sed -E -e 's/[0-9]{8}T[0-9]{6,}Z-[0-9a-f]+/<RUN>/g' \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z?/<TIME>/g' \
    -e 's/"run_id": ?"[^"]*"/"run_id":"<RUN>"/g' \
    -e "s#$stores/[a-z]+#<STORE>#g" \
    -e 's/in [0-9.]+ ?m?s/in <T>/g' -e 's/[0-9]+(\.[0-9]+)? ?s\b/<T>s/g' "$1"
}
rc=0
for fmt in json sarif table md; do
  for which in old new; do
    bin=$old
    [[ $which == new ]] && bin=$new
    "$bin" validate --repo "$repo" --memories "$mem" --format "$fmt" --fail-on never \
      --store "$stores/$which" -q -o "$out/$which.$fmt" "$@" 2>"$out/$which.$fmt.err"
    echo "exit $?" >>"$out/$which.$fmt.err"
    rm -rf "${stores:?}/$which"
  done
  if cmp -s <(mask "$out/old.$fmt") <(mask "$out/new.$fmt") \
    && cmp -s <(mask "$out/old.$fmt.err") <(mask "$out/new.$fmt.err"); then
    echo "$fmt identical ($(wc -c <"$out/new.$fmt") bytes)"
  else
    echo "$fmt DIFFERS"
    diff <(mask "$out/old.$fmt") <(mask "$out/new.$fmt") | head -5
    rc=1
  fi
done
exit $rc
