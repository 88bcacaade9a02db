#!/usr/bin/env bash
# Throwaway PostgreSQL 15 + pgvector and Redis 7 on free loopback ports, for tests and CI.
#   scripts/services.sh up|down|status [STATE_DIR]   (default: ${JIYI_SERVICES_DIR:-/tmp/jiyi-services})
# `up` prints JIYI_TEST_PG_DSN=... and JIYI_TEST_REDIS_URL=... (also written to STATE_DIR/env;
# load with `set -a; . STATE_DIR/env; set +a`). All progress/errors go to stderr.
# Debian 12 (run as root). Never touches the system cluster or /etc/apt.
set -euo pipefail

PGBIN=/usr/lib/postgresql/15/bin
PGEXT=/usr/share/postgresql/15/extension
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/jiyi/pgvector
MARK=.jiyi-services   # only dirs carrying this marker are ever removed

say() { echo "services.sh: $*" >&2; }
die() { say "error: $*"; exit 1; }
need_root() { [ "$(id -u)" = 0 ] || die "must run as root (installs packages, runs postgres as its own user)"; }
as_pg() { runuser -u postgres -- "$@"; }

CMD=${1:-}; STATE=${2:-${JIYI_SERVICES_DIR:-/tmp/jiyi-services}}
STATE=$(realpath -m -- "$STATE")
[ "$STATE" != / ] || die "refusing STATE_DIR=/"
cd /   # postgres cannot read root's cwd; avoid its "could not change directory" errors

apt_install() {   # only missing packages; `apt-get update` only when the install needs it
  local p missing=()
  for p in "$@"; do
    dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-cache show "${missing[@]}" >/dev/null 2>&1 || { say "apt-get update (no package lists)"; apt-get update -q >&2; }
  apt-get install -y -q "${missing[@]}" >&2 || { say "retrying after apt-get update (stale lists?)"
    apt-get update -q >&2 && apt-get install -y -q "${missing[@]}" >&2; } \
    || die "apt-get install ${missing[*]} failed"
}

install_pgvector() {   # Debian 12 has no pgvector package: build Debian 13's source against PG 15
  [ -f "$PGEXT/vector.control" ] && return 0
  apt_install postgresql-server-dev-15 build-essential
  mkdir -p "$CACHE"
  local tgz; tgz=$(ls "$CACHE"/pgvector_*.orig.tar.* 2>/dev/null | tail -1 || true)
  if [ -z "$tgz" ]; then
    say "fetching pgvector source from Debian trixie (private apt config, /etc/apt untouched)"
    local a=$CACHE/apt
    mkdir -p "$a/parts" "$a/lists/partial" "$a/cache/archives/partial"
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: trixie' \
      'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
      > "$a/parts/trixie-src.sources"
    local o=(-q -o APT::Sandbox::User=root -o Dir::Etc::sourcelist=/dev/null -o "Dir::Etc::sourceparts=$a/parts"
             -o "Dir::State::Lists=$a/lists" -o "Dir::Cache=$a/cache")
    apt-get "${o[@]}" update >&2 || die "apt-get update of the trixie source index failed"
    (cd "$CACHE" && apt-get "${o[@]}" source --download-only pgvector >&2) \
      || die "could not download the pgvector source package"
    rm -rf "$a"   # the trixie index (~20 MB) is only needed for this one download
    tgz=$(ls "$CACHE"/pgvector_*.orig.tar.* 2>/dev/null | tail -1 || true)
    [ -n "$tgz" ] || die "no pgvector .orig tarball in $CACHE"
  fi
  say "building $(basename "$tgz") against PostgreSQL 15"
  local src; src=$(mktemp -d); tar -xf "$tgz" -C "$src" --strip-components=1
  # OPTFLAGS="" drops -march=native so the build also runs on other CPUs
  { make -C "$src" -j"$(nproc)" PG_CONFIG="$PGBIN/pg_config" OPTFLAGS="" \
    && make -C "$src" PG_CONFIG="$PGBIN/pg_config" OPTFLAGS="" install; } >"$src.log" 2>&1 \
    || { tail -n 30 "$src.log" >&2; die "pgvector build failed (log: $src.log)"; }
  rm -rf "$src" "$src.log"
  [ -f "$PGEXT/vector.control" ] || die "pgvector installed but $PGEXT/vector.control missing"
}

load_env() { [ -f "$STATE/env" ] && . "$STATE/env" && PGPORT=${JIYI_TEST_PG_DSN##*:} \
  && PGPORT=${PGPORT%%/*} && RPORT=${JIYI_TEST_REDIS_URL##*:} && RPORT=${RPORT%%/*}; }
pid_alive() { [ -f "$1" ] && kill -0 "$(head -n1 "$1")" 2>/dev/null; }
pg_up() { pid_alive "$STATE/pg/postmaster.pid" && "$PGBIN/pg_isready" -q -h 127.0.0.1 -p "$PGPORT"; }
redis_up() { pid_alive "$STATE/redis.pid" && [ "$(redis-cli -p "$RPORT" ping 2>/dev/null)" = PONG ]; }

stop_all() {   # by pid only, never a system cluster
  if pid_alive "$STATE/pg/postmaster.pid"; then
    as_pg "$PGBIN/pg_ctl" -s -D "$STATE/pg" -m fast -w -t 30 stop >&2 || say "pg_ctl stop failed"
  fi
  # after a reboot the pid may belong to someone else: only kill a redis-server
  if pid_alive "$STATE/redis.pid" && grep -qx redis-server "/proc/$(head -n1 "$STATE/redis.pid")/comm"; then
    local pid i; pid=$(head -n1 "$STATE/redis.pid"); kill "$pid"
    for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { say "redis $pid ignored SIGTERM; killing"; kill -9 "$pid"; }
  fi
  return 0
}

remove_state() {
  [ -e "$STATE" ] || return 0
  [ -f "$STATE/$MARK" ] || die "$STATE exists but was not made by this script; not touching it"
  rm -rf -- "$STATE"
}

up() {
  need_root
  if load_env 2>/dev/null && pg_up && redis_up; then cat "$STATE/env"; return; fi
  if [ -e "$STATE" ]; then   # leftovers (crash, reboot): clear them, but only if ours
    [ -f "$STATE/$MARK" ] || die "$STATE exists but was not made by this script; not touching it"
    say "removing stale state in $STATE"; stop_all; remove_state
  fi
  apt_install postgresql redis-server
  install_pgvector
  mkdir -p "$STATE" && touch "$STATE/$MARK" && chown postgres: "$STATE"
  as_pg test -w "$STATE" || die "user postgres cannot reach $STATE (use a dir under /tmp)"
  # On any failure from here on, stop what was started; the state dir stays for its logs.
  trap '[ $? -eq 0 ] || { say "up failed; logs in $STATE"; stop_all; }' EXIT
  read -r PGPORT RPORT < <(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))') || die "could not pick free ports"
  as_pg "$PGBIN/initdb" -D "$STATE/pg" -A trust -U postgres -E UTF8 --locale=C.UTF-8 --no-sync \
    >"$STATE/initdb.log" 2>&1 || { tail -n 20 "$STATE/initdb.log" >&2; die "initdb failed"; }
  # Durability is pointless for throwaway test data: fsync off makes tests faster.
  as_pg "$PGBIN/pg_ctl" -D "$STATE/pg" -l "$STATE/pg.log" -w -t 60 -o "-p $PGPORT -k $STATE \
    -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { tail -n 20 "$STATE/pg.log" >&2; die "postgres did not start"; }
  redis-server --port "$RPORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$STATE/redis.pid" --dir "$STATE" --logfile "$STATE/redis.log" \
    || die "redis-server did not start"
  local i; for i in $(seq 100); do redis_up && break; sleep 0.1; done
  redis_up || { tail -n 20 "$STATE/redis.log" >&2; die "redis not answering on port $RPORT"; }
  local psql=("$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PGPORT" -U postgres)
  "${psql[@]}" -d postgres -c 'CREATE DATABASE jiyi_test' || die "CREATE DATABASE failed"
  "${psql[@]}" -d jiyi_test -c 'CREATE EXTENSION vector' || die "CREATE EXTENSION vector failed"
  printf 'JIYI_TEST_PG_DSN=postgresql://postgres@127.0.0.1:%s/jiyi_test\nJIYI_TEST_REDIS_URL=redis://127.0.0.1:%s/0\n' \
    "$PGPORT" "$RPORT" > "$STATE/env"
  trap - EXIT
  say "postgres on 127.0.0.1:$PGPORT, redis on 127.0.0.1:$RPORT (state: $STATE)"
  cat "$STATE/env"
}

down() {
  need_root
  [ -e "$STATE" ] || { say "nothing in $STATE"; return 0; }
  [ -f "$STATE/$MARK" ] || die "$STATE was not made by this script; not touching it"
  stop_all; remove_state; say "stopped and removed $STATE"
}

status() {
  load_env 2>/dev/null || { say "no services in $STATE"; return 3; }
  local rc=0
  if pg_up; then say "postgres: up on 127.0.0.1:$PGPORT"; else say "postgres: DOWN"; rc=3; fi
  if redis_up; then say "redis:    up on 127.0.0.1:$RPORT"; else say "redis:    DOWN"; rc=3; fi
  [ $rc -eq 0 ] && cat "$STATE/env"
  return $rc
}

case $CMD in
  up|down|status) "$CMD" ;;
  *) die "usage: $0 up|down|status [STATE_DIR]" ;;
esac
