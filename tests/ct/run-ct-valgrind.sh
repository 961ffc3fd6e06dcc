#!/bin/sh
# The constant-time check (tests/ct/ct_valgrind.c under valgrind memcheck).
#   run-ct-valgrind.sh PROGRAM
# 1. Every cipher, back end and length with the secrets marked undefined:
#    memcheck must report no error at all (exit 0, "0 errors").
# 2. Each deliberately leaky function must be reported, with its name in the
#    stack, as the kind of error it commits: proof that step 1 can fail.
# Exit 77 (skip) when valgrind or the library's declassification hooks are
# missing.
set -u
prog=$1
if ! command -v valgrind >/dev/null 2>&1; then
  echo "SKIP: valgrind is not installed (scripts/install-deps test)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
vg="valgrind --tool=memcheck --error-exitcode=99 --num-callers=30"
fail=0

$vg "$prog" >"$tmp/all.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
  grep SKIP "$tmp/all.log"
  exit 77
fi
tail -n 3 "$tmp/all.log" | grep -v '^==' || true
if [ $rc -ne 0 ] || ! grep -q "ERROR SUMMARY: 0 errors" "$tmp/all.log"; then
  echo "FAIL: secret-dependent branch or address (or a failed check), exit $rc:"
  grep -E "FAIL|Conditional jump|uninitialised value|^==[0-9]+==    (at|by) " "$tmp/all.log" | head -n 60
  echo "(rerun: valgrind --track-origins=yes $prog, to see where each secret came from)"
  fail=1
else
  echo "ok: no secret-dependent branch or address: $(grep 'ERROR SUMMARY' "$tmp/all.log")"
fi

# The leaky helpers: each must be caught, by name.
for case in "leak-table:Use of uninitialised value of size:leaky_table_lookup" \
            "leak-branch:Conditional jump or move depends on uninitialised value:leaky_branch" \
            "leak-compare:Conditional jump or move depends on uninitialised value:leaky_compare"; do
  arg=${case%%:*}
  rest=${case#*:}
  kind=${rest%%:*}
  fn=${rest#*:}
  $vg "$prog" "$arg" >"$tmp/$arg.log" 2>&1
  rc=$?
  if [ $rc -eq 99 ] && grep -q "$kind" "$tmp/$arg.log" && grep -q "$fn" "$tmp/$arg.log"; then
    echo "ok: $arg caught (\"$kind\" in $fn)"
  else
    echo "FAIL: $arg not caught (exit $rc, want 99 with \"$kind\" in $fn)"
    sed -n 1,40p "$tmp/$arg.log"
    fail=1
  fi
done
exit $fail
