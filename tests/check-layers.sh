#!/bin/sh
# The layering rule of docs/ARCHITECTURE.md, checked on the sources: no file
# includes a header of a higher layer, and no file names (calls or takes the
# address of) an hwc_* function defined in a higher layer.
#
#   tests/check-layers.sh [SRC_DIR]      check the tree (default: src/)
#   tests/check-layers.sh --self-test    also show that the check fails on an
#                                        upward include and an upward call
#                                        injected into a copy of src/
#
# Layers, lowest first (a file may use its own layer and the ones below):
#   0 kernel     src/backend.h, src/kernel/, src/util.c, src/cpu/ (what the
#                CPU has: back ends may ask hwc_caps())
#   1 back ends  src/getters.h, src/ct/, src/x86/, src/riscv/, src/arm/
#   2 dispatch   src/dispatch.h, src/dispatch.c
#   3 modes      src/mode.h, src/modes/
#   4 api        src/api.c, src/internal.h
# A file of src/ that fits none of these fails the check (a new directory
# must be placed in a layer here and in docs/ARCHITECTURE.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)

check() { # check SRC_DIR: prints the violations, exits 1 if any
  src=$(cd "$1" && pwd)
  files=$(cd "$src" && find . -name '*.[chS]' | sed 's|^\./||' | LC_ALL=C sort)
  [ -n "$files" ] || { echo "check-layers: no sources under $src" >&2; return 1; }
  (cd "$src" && awk -v FILES="$files" '
  function rank(f) {
    if (f == "backend.h" || f == "util.c" || f ~ /^(kernel|cpu)\//) return 0
    if (f == "getters.h" || f ~ /^(ct|x86|riscv|arm)\//) return 1
    if (f == "dispatch.h" || f == "dispatch.c") return 2
    if (f == "mode.h" || f ~ /^modes\//) return 3
    if (f == "api.c" || f == "internal.h") return 4
    return -1
  }
  function dir(f) { return f ~ /\// ? substr(f, 1, match(f, /\/[^\/]*$/)) : "" }
  # Code of a line without its comments (block comments may span lines).
  function code(line,   out, s, e) {
    out = ""
    while (line != "") {
      if (in_comment) {
        e = index(line, "*/")
        if (!e) return out
        line = substr(line, e + 2); in_comment = 0
      } else {
        s = index(line, "/*")
        e = index(line, "//")
        if (e && (!s || e < s)) return out substr(line, 1, e - 1)
        if (!s) return out line
        out = out substr(line, 1, s - 1) " "; line = substr(line, s + 2); in_comment = 1
      }
    }
    return out
  }
  BEGIN {
    layer[0] = "kernel"; layer[1] = "back end"; layer[2] = "dispatch"; layer[3] = "mode"; layer[4] = "api"
    n = split(FILES, f, "\n")
    if (n == 0) { print "check-layers: no files"; exit 1 }
    for (i = 1; i <= n; i++) {
      exists[f[i]] = 1
      if (rank(f[i]) < 0) { printf "%s: in no layer (tests/check-layers.sh)\n", f[i]; bad++ }
    }
    # Pass 1: where each external (or header-inline) hwc_* function is defined.
    for (i = 1; i <= n; i++) {
      in_comment = 0
      while ((getline line < f[i]) > 0) {
        c = code(line)
        if (c !~ /^[A-Za-z_]/ || c ~ /^(typedef|extern|#)/ || c ~ /;[ \t]*$/) continue
        if (f[i] ~ /\.h$/ && c !~ /^static inline/) continue
        if (f[i] ~ /\.c$/ && c ~ /^static/) continue
        # The defined name is the one before the first parenthesis.
        if (match(c, /^[^(]*[ *]hwc_[A-Za-z0-9_]+\(/)) {
          c = substr(c, 1, RLENGTH); match(c, /[ *]hwc_[A-Za-z0-9_]+\($/)
          name = substr(c, RSTART + 1, RLENGTH - 2)
          r = rank(f[i])
          if (!(name in def) || r < def[name]) { def[name] = r; where[name] = f[i] }
        }
      }
      close(f[i])
    }
    # Pass 2: includes and uses.
    for (i = 1; i <= n; i++) {
      r = rank(f[i]); ln = 0; in_comment = 0
      while ((getline line < f[i]) > 0) {
        ln++
        if (line ~ /^[ \t]*#[ \t]*include[ \t]*"/) {
          inc = line; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
          t = exists[dir(f[i]) inc] ? dir(f[i]) inc : (exists[inc] ? inc : "")
          if (t != "" && rank(t) > r) {
            printf "%s:%d: includes %s: %s layer above %s\n", f[i], ln, t, layer[rank(t)], layer[r]; bad++
          }
          continue
        }
        c = code(line)
        while (match(c, /hwc_[A-Za-z0-9_]+/)) {
          name = substr(c, RSTART, RLENGTH)
          prev = RSTART > 1 ? substr(c, RSTART - 1, 1) : ""
          c = substr(c, RSTART + RLENGTH)
          if (prev ~ /[A-Za-z0-9_]/ || !(name in def) || def[name] <= r) continue
          printf "%s:%d: uses %s (%s, %s layer) from the %s layer\n", f[i], ln, name, where[name],
                 layer[def[name]], layer[r]
          bad++
        }
      }
      close(f[i])
    }
    if (bad) { printf "check-layers: %d upward edge(s) or unplaced file(s)\n", bad; exit 1 }
    nd = 0; for (k in def) nd++
    printf "check-layers: %d files, %d hwc_* functions, no edge from a lower layer to a higher one\n", n, nd
  }')
}

if [ "${1:-}" = --self-test ]; then
  root=$(cd "$here/.." && pwd)
  check "$root/src"
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  fails=0
  expect_fail() { # expect_fail WHAT FILE LINE
    rm -rf "$tmp/src" && cp -R "$root/src" "$tmp/src"
    printf '%s\n' "$3" >>"$tmp/src/$2"
    if check "$tmp/src" >"$tmp/out" 2>&1; then
      echo "FAIL: the check passed with $1 ($2: $3)"; fails=$((fails + 1))
    else
      echo "ok: $1 caught: $(grep -m1 -v '^check-layers:' "$tmp/out")"
    fi
  }
  expect_fail "a back end including the mode header" ct/aes_ct.c '#include "mode.h"'
  expect_fail "a back end calling mode code" ct/ghash_ct.c 'void f(void); void f(void) { hwc_cmac_reset(0); }'
  expect_fail "the kernel layer calling dispatch" kernel/key.c 'static void f(void) { (void)hwc_select_ghash_impl(); }'
  expect_fail "a mode including api.c's header" modes/ecb.c '#include "internal.h"'
  expect_fail "a file in no layer" ../src/stray.c '/* nothing */'
  [ "$fails" = 0 ] || exit 1
  echo "check-layers: self-test passed"
  exit 0
fi
check "${1:-$here/../src}"
