#!/bin/sh
# Real programs over hwcrypt's provider: nginx serves files over TLS and curl
# downloads them, each configured only through OPENSSL_CONF (the README's
# system-wide setting: default + hwcrypt, default_properties =
# ?provider=hwcrypt, the module from BUILD_DIR).
#
#   tests/provider/run-tls-apps.sh BUILD_DIR
#
# For each TLS suite below, nginx (a temporary prefix, a port picked at run
# time, a self-signed RSA certificate, worker_processes 1; one instance per
# server configuration) offers only that suite, and curl asks only for it.
# Three runs per suite: hwcrypt preferred on both sides; on the server only;
# on the client only.
# The side "without" hwcrypt loads it too but with default_properties =
# provider=default, so the default provider does all of its crypto and its
# own report must show 0 bytes through hwcrypt. Each run downloads four
# files (0 B, 1 B, 16 KiB + 5, 5 MiB of random bytes) on one connection.
# Required, else FAIL:
#  - every download equals its original byte for byte (cmp), and curl exits 0;
#  - the suite negotiated is the one asked for, on both sides: curl -v's
#    "SSL connection using" line and nginx's access log ($ssl_protocol
#    $ssl_cipher, per request);
#  - the bytes went through hwcrypt, per process (see below): a process with
#    hwcrypt preferred counted at least the bytes of the file bodies it
#    encrypted or decrypted (nginx's worker: every body it sent in that
#    nginx's lifetime; curl: every body it received), in hwcrypt-gcm-bytes
#    for GCM suites; a process with hwcrypt loaded but not preferred counted 0.
#
# Why the counters are read this way: curl and nginx cannot be asked for
# the provider's parameters (OSSL_PROVIDER_get_params), and a wrapper or
# LD_PRELOAD would change the programs under test. The provider's opt-in
# report does it from inside: with HWCRYPT_PROVIDER_REPORT naming a file,
# the teardown of the process's last hwcrypt instance (OpenSSL's exit-time
# cleanup) appends "hwcrypt-provider pid=P comm=C hwcrypt-bytes=N ...".
# Each process is found by its pid: curl's from the shell ($!), nginx's
# worker's from its access log ($pid). A process whose line is missing
# (no cleanup ran, the variable did not reach it) fails the test. Counters
# are per process: a line holds that process's traffic, plus, for nginx's
# worker, what its master had counted before the fork (the master's own
# line, written at its exit, is subtracted). Contexts add their bytes at
# final and when freed, so all of a closed connection's records are in by
# the time the process exits. The counters count what the provider's
# ciphers processed, so records that the default provider's ciphers
# protected cannot raise them; besides the records they hold OpenSSL's
# CTR-DRBG (AES-256-CTR, fetched under the same preference): here ~20 KB
# per 5 MiB in nginx's worker (CBC's per-record IVs), far below the bodies,
# and never in hwcrypt-gcm-bytes, which the GCM suites are held to.
#
# TLS 1.2 CBC: only with encrypt-then-MAC (OpenSSL's default, negotiated
# by both): without it libssl fetches the default provider's stitched
# AES-CBC-HMAC ciphers, which hwcrypt does not offer (README, "What remains
# different"); that case is run too (AES128-SHA, nginx refusing
# encrypt-then-MAC) and held to what the README says: the files arrive
# intact and hwcrypt carries under 1% of the bodies' bytes (when this
# OpenSSL's default provider has the stitched cipher; else hwcrypt must
# carry them all, as for the other suites). On x86-64 it is run once more
# with OpenSSL's AES-NI masked (OPENSSL_ia32cap, both sides), where the
# default provider has no stitched cipher: libssl then runs AES-128-CBC and
# HMAC-SHA1 apart, and hwcrypt's MAC-then-encrypt record path (padding
# and MAC checked and stripped by the provider) must carry everything.
#
# Needs the packages curl and openssl (scripts/install-deps
# check-provider-suites): a missing one fails the test, naming it. nginx is
# the system's when installed; otherwise Debian's nginx package is fetched
# and unpacked into the cache by scripts/apt-fetch (never installed: the
# package would start and enable a server on port 80) and its binary runs
# from there.
set -eu
build=$(cd "${1:?usage: run-tls-apps.sh BUILD_DIR}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
say() { echo "run-tls-apps: $*"; }
fail() {
  [ -s "${report:-}" ] && sed 's/^/  report: /' "$report" >&2
  echo "run-tls-apps: FAIL: $*" >&2
  exit 1
}

[ -f "$build/hwcrypt.so" ] || fail "no $build/hwcrypt.so (build first)"
PATH=$PATH:/usr/sbin:/sbin
for pkg in curl openssl; do
  command -v $pkg >/dev/null 2>&1 || fail "$pkg is not installed (package $pkg: scripts/install-deps check-provider-suites)"
done
if ! command -v nginx >/dev/null 2>&1; then
  unpacked=$("$here/../../scripts/apt-fetch" unpack nginx | tail -1) ||
    fail "could not fetch Debian's nginx package (scripts/apt-fetch unpack nginx)"
  [ -x "$unpacked/usr/sbin/nginx" ] || fail "no usr/sbin/nginx in $unpacked"
  PATH=$unpacked/usr/sbin:$PATH
  nginx -v 2>/dev/null || fail "$unpacked/usr/sbin/nginx does not run (its libraries: scripts/install-deps check-provider-suites)"
fi
say "nginx: $(command -v nginx)"

work=$(mktemp -d)
nginx_pid=""
ossl_env="" # VAR=VALUE for nginx, curl and openssl list (none: "")
stop_nginx() {
  [ -n "$nginx_pid" ] || return 0
  # QUIT: a graceful stop, so the worker exits through OpenSSL's cleanup.
  kill -QUIT "$nginx_pid" 2>/dev/null || true
  wait "$nginx_pid" 2>/dev/null || true
  nginx_pid=""
}
cleanup() {
  if [ -n "$nginx_pid" ]; then
    kill -TERM "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# When root, nginx's worker runs as nobody: it must read the files and
# append to the report.
chmod 755 "$work"
report=$work/report
: >"$report"
chmod 666 "$report"

for p in hwcrypt:'?provider=hwcrypt' default:'provider=default'; do
  sed -e "s|@MODULE@|$build/hwcrypt.so|" -e "s|@PROPERTIES@|${p#*:}|" "$here/hwcrypt-preferred.cnf.in" >"$work/${p%%:*}.cnf"
done
chmod 644 "$work"/*.cnf

# The certificate, with the system's configuration (not hwcrypt's: this is
# not under test).
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" -days 2 \
  -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>"$work/req.log" ||
  { cat "$work/req.log"; fail "openssl req"; }

mkdir -p "$work/www" "$work/got"
: >"$work/www/empty"
head -c 1 /dev/urandom >"$work/www/one"
head -c 16389 /dev/urandom >"$work/www/mid"
head -c 5242880 /dev/urandom >"$work/www/big"
files="empty one mid big"
body_bytes=$((0 + 1 + 16389 + 5242880)) # one run's bodies
chmod 755 "$work/www"
chmod 644 "$work"/www/*

# nginx's temp paths default to /var/lib/nginx/... (Debian): keep them here.
temp_paths="client_body_temp_path $work/tmp-body;"
for m in proxy fastcgi uwsgi scgi; do
  nginx -V 2>&1 | grep -q -- "--without-http_${m}_module" || temp_paths="$temp_paths ${m}_temp_path $work/tmp-$m;"
done
user_line=""
[ "$(id -u)" = 0 ] && user_line="user nobody $(id -gn nobody 2>/dev/null || echo nogroup);"

# start_nginx SIDE PROTOCOLS CIPHERS [SSL_CONF_COMMAND...]: an nginx with
# OPENSSL_CONF=SIDE.cnf offering only those; sets nginx_pid and port.
start_nginx() {
  stop_nginx
  side=$1 protocols=$2 ciphers=$3 extra=$4
  tries=0
  while :; do
    tries=$((tries + 1))
    port=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000))
    rm -f "$work/nginx.pid" "$work/access.log"
    : >"$work/error.log"
    cat >"$work/nginx.conf" <<EOF
$user_line
daemon off;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log notice;
env OPENSSL_CONF;
env HWCRYPT_PROVIDER_REPORT;
env HWCRYPT_CAPS;
events { worker_connections 64; }
http {
  $temp_paths
  default_type application/octet-stream;
  log_format tls '\$pid \$ssl_protocol \$ssl_cipher \$status \$body_bytes_sent \$request_uri';
  access_log $work/access.log tls;
  server {
    listen 127.0.0.1:$port ssl;
    ssl_certificate $work/cert.pem;
    ssl_certificate_key $work/key.pem;
    ssl_protocols $protocols;
    $ciphers
    $extra
    root $work/www;
  }
}
EOF
    # shellcheck disable=SC2086
    env $ossl_env OPENSSL_CONF=$work/$side.cnf HWCRYPT_PROVIDER_REPORT=$report \
      nginx -p "$work" -c "$work/nginx.conf" -e "$work/error.log" 2>"$work/nginx.stderr" &
    nginx_pid=$!
    # The pid file is written once the socket listens.
    i=0
    while [ ! -s "$work/nginx.pid" ] && kill -0 "$nginx_pid" 2>/dev/null && [ $i -lt 200 ]; do
      sleep 0.02
      i=$((i + 1))
    done
    [ -s "$work/nginx.pid" ] && kill -0 "$nginx_pid" 2>/dev/null && return 0
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
    if grep -q "Address already in use" "$work/error.log" "$work/nginx.stderr" && [ $tries -lt 10 ]; then
      continue
    fi
    cat "$work/error.log" "$work/nginx.stderr"
    fail "nginx did not start"
  done
}

# count PID KEY: the KEY counter of PID's report line ("" if none; the
# last line if several: the counters only grow).
count() {
  sed -n "s/^hwcrypt-provider pid=$1 .*[ ]$2=\([0-9]*\).*/\1/p" "$report" | tail -1
}

# check_count WHO PID EXPECT BYTES KEY [BASE]: PID's KEY counter, less BASE
# (what nginx's master had counted: the worker inherits it at fork), held
# to EXPECT: "carried" (at least BYTES), "none" (0: hwcrypt loaded but not
# preferred) or "bypassed" (below 1% of BYTES: the stitched cipher did it).
check_count() {
  n=$(count "$2" "$5")
  [ -n "$n" ] || fail "$label: no hwcrypt report from $1 (pid $2)"
  n=$((n - ${6:-0}))
  case $3 in
  carried) [ "$n" -ge "$4" ] || fail "$label: $1 (pid $2): $5=$n, below the $4 bytes of bodies it carried" ;;
  none) [ "$n" -eq 0 ] || fail "$label: $1 (pid $2) has hwcrypt loaded but not preferred, yet $5=$n" ;;
  bypassed) [ "$n" -lt $(($4 / 100)) ] || fail "$label: $1 (pid $2): $5=$n for $4 bytes of bodies: the records went through hwcrypt, not the default provider's stitched cipher (update README's 'What remains different')" ;;
  esac
  echo "$1 $5=$n"
}

# run_suite TLSVER SUITE [no-etm STITCHED]: the three runs (server+client,
# server only, client only). With no-etm, nginx refuses encrypt-then-MAC and
# only the run with hwcrypt preferred on both sides is made.
run_suite() {
  ver=$1 suite=$2 mode=${3:-}
  label="TLS $ver $suite"
  key=hwcrypt-bytes
  case $suite in *GCM*) key=hwcrypt-gcm-bytes ;; esac
  if [ "$ver" = 1.3 ]; then
    ciphers="ssl_conf_command Ciphersuites $suite;"
    curl_suite="--tlsv1.3 --tls-max 1.3 --tls13-ciphers $suite"
  else
    ciphers="ssl_ciphers $suite;"
    curl_suite="--tlsv1.2 --tls-max 1.2 --ciphers $suite"
  fi
  extra="" expect=carried servers="hwcrypt default"
  if [ "$mode" = no-etm ]; then
    extra="ssl_conf_command Options -EncryptThenMac;"
    label="$label without encrypt-then-MAC${ossl_env:+ ($ossl_env)}"
    servers=hwcrypt
    # libssl takes the stitched cipher (STITCHED) when a provider offers it.
    # shellcheck disable=SC2086
    if env $ossl_env OPENSSL_CONF=$work/hwcrypt.cnf openssl list -cipher-algorithms 2>/dev/null | grep -q "$4 @ default"; then
      expect=bypassed
    fi
  fi
  summary=""
  for server in $servers; do
    start_nginx "$server" "TLSv$ver" "$ciphers" "$extra"
    clients=hwcrypt
    [ "$server" = hwcrypt ] && [ -z "$mode" ] && clients="hwcrypt default"
    runs=0
    for client in $clients; do
      runs=$((runs + 1))
      urls=""
      for f in $files; do urls="$urls -o $work/got/$f https://localhost:$port/$f"; done
      rm -f "$work"/got/*
      # shellcheck disable=SC2086
      env $ossl_env OPENSSL_CONF=$work/$client.cnf HWCRYPT_PROVIDER_REPORT=$report \
        curl -q -sS -v --noproxy "*" --resolve "localhost:$port:127.0.0.1" --cacert "$work/cert.pem" $curl_suite $urls >"$work/curl.out" 2>"$work/curl.err" &
      curl_pid=$!
      rc=0
      wait $curl_pid || rc=$?
      [ $rc = 0 ] || { cat "$work/curl.err"; fail "$label: curl exited $rc (server $server, client $client)"; }
      for f in $files; do
        cmp -s "$work/got/$f" "$work/www/$f" ||
          fail "$label: $f differs from the original (server $server, client $client)"
      done
      got=$(sed -n 's/.*SSL connection using \([^ ]*\) \/ \([^ ]*\).*/\1 \2/p' "$work/curl.err" | sort -u)
      [ "$got" = "TLSv$ver $suite" ] || fail "$label: curl negotiated '$got'"
      e=none
      [ "$client" = hwcrypt ] && e=$expect
      c=$(check_count curl $curl_pid $e $body_bytes $key)
      summary="$summary $server/$client: $c;"
    done
    master=$nginx_pid
    stop_nginx
    # Every request of this nginx, each under the suite asked for.
    nreq=$(wc -l <"$work/access.log")
    [ "$nreq" -eq $((runs * 4)) ] || fail "$label: nginx logged $nreq requests, not $((runs * 4))"
    bad=$(awk -v v="TLSv$ver" -v c="$suite" '$2 != v || $3 != c || $4 != 200' "$work/access.log")
    [ -z "$bad" ] || fail "$label: nginx served under another suite or status: $bad"
    worker=$(awk '{print $1}' "$work/access.log" | sort -u)
    [ "$(echo "$worker" | wc -l)" = 1 ] || fail "$label: more than one worker: $worker"
    base=$(count "$master" $key)
    [ -n "$base" ] || fail "$label: no hwcrypt report from nginx's master (pid $master)"
    e=none
    [ "$server" = hwcrypt ] && e=$expect
    w=$(check_count nginx-worker "$worker" $e $((runs * body_bytes)) $key "$base")
    summary="$summary nginx($server) $w;"
  done
  say "$label:$summary ok"
}

t0=$(date +%s)
say "runs are SERVER/CLIENT: the configuration (hwcrypt preferred, or default only) of each side"
run_suite 1.3 TLS_AES_128_GCM_SHA256
run_suite 1.3 TLS_AES_256_GCM_SHA384
run_suite 1.3 TLS_AES_128_CCM_SHA256
run_suite 1.2 ECDHE-RSA-AES128-GCM-SHA256
run_suite 1.2 ECDHE-RSA-AES256-GCM-SHA384
# CBC: encrypt-then-MAC is negotiated (both sides' default).
run_suite 1.2 ECDHE-RSA-AES256-SHA384
run_suite 1.2 AES128-SHA
run_suite 1.2 AES128-SHA no-etm AES-128-CBC-HMAC-SHA1
if [ "$(uname -m)" = x86_64 ]; then
  ossl_env="OPENSSL_ia32cap=~0x200000000000000" # the AES-NI bit
  run_suite 1.2 AES128-SHA no-etm AES-128-CBC-HMAC-SHA1
  ossl_env=""
fi
say "all suites passed in $(($(date +%s) - t0)) s"
