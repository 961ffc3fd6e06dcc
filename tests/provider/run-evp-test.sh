#!/bin/sh
# OpenSSL's own evp_test over hwcrypt's provider (issue 15).  evp_test is
# built from Debian's openssl source package of the system's 3.0 series
# (the installed libssl3's version when the mirror still has it, else the
# newest 3.0 it has): only evp_test.c, test/testutil and apps/lib/opt.c,
# linked to the system libcrypto, cached.  Each data file runs with the
# default provider alone, with hwcrypt preferred (the README's system-wide
# configuration, default_properties = ?provider=hwcrypt) and, for the files
# whose every algorithm hwcrypt offers, with hwcrypt strict
# (provider=hwcrypt: nothing else can serve them).  Fails on any stanza that
# fails only with hwcrypt, and on a run that skips other stanzas or runs
# another number of them than the default provider's.
#
#   tests/provider/run-evp-test.sh BUILD_DIR
#
# Cache: the source via scripts/apt-fetch in ${XDG_CACHE_HOME:-~/.cache}/hwcrypt/src,
# the build in .../hwcrypt/evp_test/VERSION.
set -eu
build=$(cd "${1:?usage: run-evp-test.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${HWC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hwcrypt}
say() { echo "run-evp-test: $*"; }

# Every file issue 15 names; "strict" where hwcrypt offers every algorithm.
files="evpciph_aes_common:strict evpciph_aes_ocb:strict evpciph_sm4:strict evpciph_aes_ccm_cavs:strict
evpciph_aes_siv:strict evpciph_aes_wrap:strict evpciph_aes_cts evpmac_cmac_des evpkdf_krb5 evpmac_common
evpciph_aes_stitched evpkdf_x942 evprand"

[ -f "$build/hwcrypt.so" ] || { say "no $build/hwcrypt.so (build first)"; exit 1; }

# --- the source: the installed libcrypto's version, else the newest 3.0.x
installed=$(dpkg-query -W -f='${source:Version}' libssl3 2>/dev/null) || { say "libssl3 is not installed"; exit 1; }
installed=${installed#*:}
series=$(echo "$installed" | sed 's/^\([0-9]*\.[0-9]*\)\..*/\1/')
version=$installed
chosen=$cache/evp_test/chosen-for-$installed # the version picked last time for this libssl3
[ -f "$chosen" ] && version=$(cat "$chosen")
if [ ! -x "$cache/evp_test/$version/evp_test" ]; then
  have=$("$top/scripts/apt-fetch" -a source apt-cache madison openssl | awk -F'|' '{gsub(/ /, "", $2); print $2}')
  if ! echo "$have" | grep -qx "$installed"; then
    version=$(echo "$have" | grep "^$series\." | sort -V | tail -1)
    [ -n "$version" ] || { say "the mirror has no openssl $series.x source"; exit 1; }
    say "the mirror no longer has openssl $installed: using $version's tests (same series)"
  fi
fi
out=$cache/evp_test/$version
if [ ! -x "$out/evp_test" ]; then
  orig=$("$top/scripts/apt-fetch" source "openssl=$version" | grep '\.orig\.tar\.[a-z0-9]*$' | head -1)
  [ -n "$orig" ] || { say "no upstream tarball for openssl $version"; exit 1; }
  rm -rf "$out"
  mkdir -p "$out/inc"
  say "building evp_test from $(basename "$orig")"
  top_dir=$(tar -tf "$orig" | head -1 | cut -d/ -f1)
  # Only what evp_test needs.
  tar -xf "$orig" -C "$out" "$top_dir/test/evp_test.c" "$top_dir/test/testutil" "$top_dir/test/testutil.h" \
    "$top_dir/apps/lib/opt.c" "$top_dir/apps/include" "$top_dir/include/internal" "$top_dir/include/crypto" \
    "$top_dir/crypto/evp/evp_local.h" "$top_dir/e_os.h" "$top_dir/test/recipes/30-test_evp_data" \
    "$top_dir/test/default.cnf"
  src=$out/$top_dir
  # The system's OpenSSL headers for <openssl/...>; the source's own only for
  # its internal headers (include/internal, include/crypto).
  ln -s "$src/include/internal" "$out/inc/internal"
  ln -s "$src/include/crypto" "$out/inc/crypto"
  cflags="-O1 -w -I$out/inc -I$src/apps/include -I$src/test -I$src"
  objs=""
  for f in "$src"/test/testutil/*.c "$src/apps/lib/opt.c"; do
    o=$out/$(basename "$f" .c).o
    # shellcheck disable=SC2086
    cc $cflags -c "$f" -o "$o"
    objs="$objs $o"
  done
  # As a library: evp_test's own cleanup_tests/test_get_options win over
  # testutil's defaults.
  # shellcheck disable=SC2086
  ar rcs "$out/libtestutil.a" $objs
  # shellcheck disable=SC2086
  cc $cflags -o "$out/evp_test.tmp" "$src/test/evp_test.c" "$out/libtestutil.a" -lcrypto
  mv "$out/evp_test.tmp" "$out/evp_test"
fi
echo "$version" >"$chosen"
data=$(ls -d "$out"/*/test/recipes/30-test_evp_data)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for p in preferred strict; do
  q='?provider=hwcrypt'
  [ $p = strict ] && q='provider=hwcrypt'
  sed -e "s|@MODULE@|$build/hwcrypt.so|" -e "s|@PROPERTIES@|$q|" "$here/hwcrypt-preferred.cnf.in" >"$work/$p.cnf"
done
cp "$(ls "$out"/*/test/default.cnf)" "$work/default.cnf"

# run FILE CONFIG: "<stanzas> <skipped>" and the failing stanzas' lines in
# $work/FILE.CONFIG.failed; "crash" when evp_test did not complete.
run() {
  log=$work/$1.$2.log
  "$out/evp_test" -config "$work/$2.cnf" "$data/$1.txt" >"$log" 2>&1 || true
  sed -n 's/.*\.txt:\([0-9]*\): Source of above error.*/\1/p' "$log" | sort -un >"$work/$1.$2.failed"
  sed -n 's/.*Completed \([0-9]*\) tests with [0-9]* errors and \([0-9]*\) skipped.*/\1 \2/p' "$log" | tail -1
}

bad=0
for entry in $files; do
  f=${entry%%:*}
  configs="default preferred"
  [ "$entry" != "$f" ] && configs="$configs strict"
  line="" ref=""
  for c in $configs; do
    r=$(run "$f" "$c")
    nfail=$(wc -l <"$work/$f.$c.failed")
    line="$line $c: ${r:-crash} stanzas/skipped, $nfail failed;"
    if [ "$c" = default ]; then
      ref=$r
      continue
    fi
    only=$(comm -23 "$work/$f.$c.failed" "$work/$f.default.failed" | tr '\n' ' ')
    if [ -z "$r" ] || [ "$r" != "$ref" ] || [ -n "$only" ]; then
      bad=$((bad + 1))
      line="$line FAIL (${only:+lines failing only with hwcrypt: $only}${r:-evp_test did not complete})"
      grep -B3 "Source of above error" "$work/$f.$c.log" | head -40 || tail -20 "$work/$f.$c.log"
    fi
  done
  say "$f.txt:$line"
done
say "$(echo "$files" | wc -w) data files; $bad runs with stanzas that fail only with hwcrypt or a different stanza count"
[ "$bad" -eq 0 ]
