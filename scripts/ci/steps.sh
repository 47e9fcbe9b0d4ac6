# Step timing for .ci/run and scripts/test.sh (sourced, not run): `step NAME COMMAND...` prints the step's
# name, runs it, and records its seconds; `step_table` prints every step with its seconds, so where a run's
# time goes is in its log. A function given as COMMAND must chain its commands with &&: bash ignores
# set -e inside a function that runs as the left side of ||, as the command does here. A failing step stops the script (set -e) after its time is recorded and printed.
STEP_TIMES_FILE="${STEP_TIMES_FILE:-$(mktemp)}"
export STEP_TIMES_FILE

step() {
  local name="$1"; shift
  echo "== $name"
  local started=$SECONDS status=0 depth="${STEP_DEPTH:-0}"
  # Steps run inside this one (npm test's own steps under .ci/run) are one level deeper: indented in the
  # table and not added to its total again.
  STEP_DEPTH=$((depth + 1)) "$@" || status=$?
  local took=$((SECONDS - started))
  printf '%s\t%s\t%s\t%s\n' "$name" "$took" "$status" "$depth" >>"$STEP_TIMES_FILE"
  echo "-- $name: ${took} s$([ "$status" -eq 0 ] || echo " (exit $status)")"
  return "$status"
}

step_table() {
  echo "== step times (seconds)"
  awk -F'\t' '{ indent = ""; for (i = 0; i < $4; i++) indent = indent "  ";
                 printf "%6d  %s%s%s\n", $2, indent, $1, ($3 == 0 ? "" : "  (exit " $3 ")"); if ($4 == 0) total += $2 }
               END { printf "%6d  total\n", total }' "$STEP_TIMES_FILE"
}
