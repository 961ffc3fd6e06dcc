#!/bin/sh
# pyca/cryptography's own tests over hwcrypt's provider (issue 15): the tests
# of Debian's source package of the installed python3-cryptography (with
# Debian's patches), run by the system's python3 against the system's
# python3-cryptography (which links the system libcrypto) twice: with the
# default provider alone, and with hwcrypt preferred as the README's
# system-wide configuration does (default_properties = ?provider=hwcrypt).
# Fails unless every test file has the same passed/failed/skipped counts
# (tests and subtests) both ways and hwcrypt's byte counter rose in each.
#
#   tests/provider/run-pyca.sh BUILD_DIR
#
# The source is fetched with scripts/apt-fetch (nothing added to the
# system's apt sources) into ${XDG_CACHE_HOME:-~/.cache}/hwcrypt/src and
# unpacked once into .../hwcrypt/pyca/VERSION.
set -eu
build=$(cd "${1:?usage: run-pyca.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${HWC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/hwcrypt}
py=/usr/bin/python3 # the system's, which has the system's python3-cryptography
say() { echo "run-pyca: $*"; }
# HWC_PYCA_FILES overrides the list (to look at one file).
all_files="tests/hazmat/primitives/test_aes.py tests/hazmat/primitives/test_aes_gcm.py
tests/hazmat/primitives/test_aead.py tests/hazmat/primitives/test_sm4.py tests/hazmat/primitives/test_cmac.py
tests/hazmat/primitives/test_keywrap.py tests/hazmat/primitives/test_ciphers.py tests/hazmat/primitives/test_block.py
tests/test_fernet.py"
files=${HWC_PYCA_FILES:-$all_files}
nfiles=$(echo "$files" | wc -w)

[ -f "$build/hwcrypt.so" ] || { say "no $build/hwcrypt.so (build first)"; exit 1; }
version=$(dpkg-query -W -f='${source:Version}' python3-cryptography 2>/dev/null) ||
  { say "python3-cryptography is not installed (scripts/install-deps test)"; exit 1; }
upstream=${version%-*}
upstream=${upstream#*:}
tree=$cache/pyca/$version/cryptography-$upstream
if [ ! -f "$tree/.hwc-ready" ]; then
  files_list=$("$top/scripts/apt-fetch" source "python-cryptography=$version")
  orig=$(echo "$files_list" | grep '\.orig\.tar\.[a-z0-9]*$' | head -1)
  debian=$(echo "$files_list" | grep '\.debian\.tar\.[a-z0-9]*$' | head -1 || true)
  rm -rf "$cache/pyca/$version"
  mkdir -p "$cache/pyca/$version"
  tar -xf "$orig" -C "$cache/pyca/$version"
  if [ -n "$debian" ]; then
    # Debian's patches, as the package was built (some change tests).
    tar -xf "$debian" -C "$tree"
    while read -r p; do
      case $p in '' | '#'*) continue ;; esac
      patch -d "$tree" -p1 -s <"$tree/debian/patches/$p"
    done <"$tree/debian/patches/series"
  else
    say "warning: no Debian tarball on the mirror: upstream tests without Debian's patches"
  fi
  touch "$tree/.hwc-ready"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e "s|@MODULE@|$build/hwcrypt.so|" -e "s|@PROPERTIES@|?provider=hwcrypt|" "$here/hwcrypt-preferred.cnf.in" >"$work/hwcrypt.cnf"

run() { # $1: label, $2: OPENSSL_CONF ('' for the system's default)
  # pyproject's addopts need pytest-benchmark; only --strict-markers matters.
  rc=0
  # shellcheck disable=SC2086
  (cd "$tree" && exec env ${2:+OPENSSL_CONF=$2} HWC_PYCA_REPORT="$work/$1.json" PYTHONPATH="$here" \
    PYTHONDONTWRITEBYTECODE=1 HYPOTHESIS_STORAGE_DIRECTORY="$work/hypothesis-$1" \
    "$py" -m pytest -q -p no:cacheprovider -o addopts=--strict-markers -p hwcrypt_bytes $files) \
    >"$work/$1.log" 2>&1 || rc=$?
  echo $rc >"$work/$1.rc"
}
report() {
  summary=$(grep -E '(passed|failed|skipped|error)' "$work/$1.log" | tail -1)
  say "$1: $summary (pytest exit $(cat "$work/$1.rc"))"
  [ -f "$work/$1.json" ] || { tail -30 "$work/$1.log"; say "$1: no report"; exit 1; }
}
# Both at once (2 cores): the two runs are independent processes.
run default '' &
run hwcrypt-preferred "$work/hwcrypt.cnf"
wait
report default
report hwcrypt-preferred

"$py" - "$work/default.json" "$work/hwcrypt-preferred.json" "$nfiles" <<'EOF'
import json, sys
ref, hw = (json.load(open(p)) for p in sys.argv[1:3])
kinds = ("passed", "failed", "skipped", "error", "subtest_passed", "subtest_failed", "subtest_skipped")
bad = 0
for f in sorted(set(ref) | set(hw)):
    r, h = ref.get(f, {}), hw.get(f, {})
    a = {k: r.get(k, 0) for k in kinds if r.get(k, 0) or h.get(k, 0)}
    b = {k: h.get(k, 0) for k in a}
    moved = h.get("hwcrypt_bytes", 0)
    ok = a == b and moved > 0 and not h.get("hwcrypt_absent")
    bad += not ok
    print("run-pyca: %-48s %s  default %s  hwcrypt %s  hwcrypt-bytes %d" % (f, "ok  " if ok else "FAIL", a, b, moved))
if len(hw) < int(sys.argv[3]):
    print("run-pyca: only %d of the %s test files reported" % (len(hw), sys.argv[3])); bad += 1
print("run-pyca: %d test files, %d differ from the default provider or bypassed hwcrypt" % (len(hw), bad))
sys.exit(1 if bad else 0)
EOF
