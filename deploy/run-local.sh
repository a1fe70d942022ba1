#!/usr/bin/env bash
# The deploy/compose.yaml topology from Debian packages, on loopback ports, in one folder:
# a PostgreSQL cluster (initdb, run as the postgres user when started as root), the app
# (`scorpion serve`) and nginx with a configuration generated from deploy/nginx.conf
# (HTTP only: the TLS parts are for production).
#
#   deploy/run-local.sh start DIR [--http-port N] [--app-port N] [--pg-port N] [--db postgresql|sqlite]
#   deploy/run-local.sh stop DIR
#   deploy/run-local.sh status DIR
#   deploy/run-local.sh psql DIR [psql arguments]   # as the cluster's superuser
#
# Needs: apt-get install postgresql nginx curl. The app is $APP_BIN (default: the
# repository's .venv/bin/scorpion); it inherits SCORPION_* variables from the caller
# (e.g. SCORPION_DAILY_SEARCH=none). DIR/scorpion.env holds the generated secrets, like the
# environment file of compose.yaml. Logs: DIR/logs/. Every wait is bounded.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
# The newest PostgreSQL installed (Debian 12: 15).
pg_bin="${PG_BIN:-$(find /usr/lib/postgresql -path "*/bin/initdb" 2>/dev/null | sort -V | tail -n 1 | xargs -r dirname)}"
nginx_bin="${NGINX_BIN:-/usr/sbin/nginx}"
scorpion_bin="${APP_BIN:-$repo/.venv/bin/scorpion}"

die() { echo "run-local.sh: $*" >&2; exit 1; }

usage() { sed -n '7,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# PostgreSQL refuses to run as root: as root, its commands run as the postgres user.
as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Waits up to $2 seconds for URL $1 to answer 2xx, and no longer than process $3 lives.
wait_http() {
    local deadline=$((SECONDS + $2))
    until curl -fsS -o /dev/null --max-time 2 "$1" 2>/dev/null; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        [ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null || return 1
        sleep 0.2
    done
}

# Sends signal $2 to the process in pid file $1.
signal_process() {
    [ -f "$1" ] && kill "-$2" "$(cat "$1")" 2>/dev/null || true
}

# Waits up to $2 seconds for the process in pid file $1 to end, then kills it.
wait_process() {
    local pidfile="$1" limit="$2" pid deadline
    [ -f "$pidfile" ] || return 0
    pid="$(cat "$pidfile")"
    deadline=$((SECONDS + limit))
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
        echo "run-local.sh: pid $pid still ran after ${limit} s: killing it" >&2
        kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
}

load_env() {
    # KEY=VALUE lines; the caller's environment wins over the file.
    local key value
    while IFS='=' read -r key value; do
        case "$key" in "" | \#*) continue ;; esac
        [ -n "${!key+set}" ] || export "$key=$value"
    done <"$dir/scorpion.env"
}

init_env() {
    [ -f "$dir/scorpion.env" ] && return 0
    (umask 077 && cat >"$dir/scorpion.env" <<EOF
# Made by run-local.sh, like the environment file of compose.yaml: keep it secret.
SCORPION_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
POSTGRES_PASSWORD=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
EOF
    )
}

start_postgres() {
    local data="$dir/pg/data" run="$dir/pg/run"
    mkdir -p "$dir/pg" "$run"
    if [ "$(id -u)" = 0 ]; then
        chown postgres:postgres "$dir/pg" "$run"
        runuser -u postgres -- test -x "$dir/pg" ||
            die "the postgres user cannot reach $dir/pg: let it through every parent (chmod o+x)"
        touch "$dir/logs/postgres.log" && chown postgres "$dir/logs/postgres.log"
    fi
    if [ ! -f "$data/PG_VERSION" ]; then
        # Local connections only through a socket only its owner may open; TCP needs a password.
        as_postgres "$pg_bin/initdb" -D "$data" -U postgres -E UTF8 --locale=C.UTF-8 \
            --auth-local=trust --auth-host=scram-sha-256 >>"$dir/logs/postgres.log" 2>&1 ||
            die "initdb failed: see $dir/logs/postgres.log"
        cat >>"$data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$run'
unix_socket_permissions = 0700
shared_buffers = 32MB
max_connections = 50
EOF
    fi
    # The port is given at each start: a restart may choose another.
    as_postgres "$pg_bin/pg_ctl" -D "$data" -l "$dir/logs/postgres.log" -o "-p $pg_port" -w -t 30 \
        start >/dev/null ||
        die "PostgreSQL did not start: see $dir/logs/postgres.log"
    # The role, its password (from scorpion.env) and the database, made or brought up to date.
    as_postgres "$pg_bin/psql" -h "$run" -p "$pg_port" -U postgres -d postgres -qX \
        -v ON_ERROR_STOP=1 >/dev/null <<EOF
SELECT 'CREATE ROLE scorpion LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'scorpion')\\gexec
ALTER ROLE scorpion PASSWORD '$POSTGRES_PASSWORD';
SELECT 'CREATE DATABASE scorpion OWNER scorpion' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'scorpion')\\gexec
EOF
}

start_app() {
    local db
    case "$db_kind" in
        sqlite) db="$dir/app/scorpion.db" ;;
        postgresql)
            db="postgresql://scorpion:$POSTGRES_PASSWORD@127.0.0.1:$pg_port/scorpion" ;;
        *) die "--db must be sqlite or postgresql, not $db_kind" ;;
    esac
    mkdir -p "$dir/app"
    # nginx on this host is the only proxy whose X-Forwarded-For the app believes.
    SCORPION_TRUSTED_PROXIES="${SCORPION_TRUSTED_PROXIES:-127.0.0.1}" \
    SCORPION_HOST=127.0.0.1 SCORPION_PORT="$app_port" SCORPION_DB="$db" \
        setsid "$scorpion_bin" serve --client "$repo/client" \
        </dev/null >>"$dir/logs/app.log" 2>&1 &
    echo $! >"$dir/app.pid"
    wait_http "http://127.0.0.1:$app_port/readyz" 60 "$(cat "$dir/app.pid")" ||
        die "the app ended or is not ready after 60 s: $(tail -n 3 "$dir/logs/app.log")"
}

write_nginx_conf() {
    local conf="$dir/nginx/scorpion.conf" user=""
    mkdir -p "$dir/nginx/cache" "$dir/nginx/tmp"
    sed -e '/^[[:space:]]*#@tls-begin$/,/^[[:space:]]*#@tls-end$/d' \
        -e "s|^\([[:space:]]*\)listen 443 .*#@listen\$|\1listen 127.0.0.1:$http_port;|" \
        -e "s|server 127\.0\.0\.1:8000;|server 127.0.0.1:$app_port;|" \
        -e "s|/var/cache/nginx/scorpion-race|$dir/nginx/cache|" \
        "$here/nginx.conf" >"$conf"
    grep -q "listen 127.0.0.1:$http_port;" "$conf" && grep -q "127.0.0.1:$app_port;" "$conf" &&
        ! grep -v '^[[:space:]]*#' "$conf" | grep -qE 'ssl|listen (\[::\]:)?(80|443)' ||
        die "deploy/nginx.conf lost a marker run-local.sh relies on (#@listen, #@tls-begin/end)"
    if [ "$(id -u)" = 0 ]; then
        # A root master runs its workers as nobody: they write the cache and temp files.
        user="user nobody $(id -gn nobody);"
        chown -R nobody "$dir/nginx/cache" "$dir/nginx/tmp"
    fi
    cat >"$dir/nginx/nginx.conf" <<EOF
# Made by deploy/run-local.sh: a main configuration around scorpion.conf.
$user
worker_processes 1;
pid $dir/nginx/nginx.pid;
error_log $dir/logs/nginx-error.log warn;
worker_shutdown_timeout 10s;  # then websockets still open are closed
events { worker_connections 1024; }
http {
    access_log $dir/logs/nginx-access.log;
    client_body_temp_path $dir/nginx/tmp/body;
    proxy_temp_path $dir/nginx/tmp/proxy;
    fastcgi_temp_path $dir/nginx/tmp/fastcgi;
    uwsgi_temp_path $dir/nginx/tmp/uwsgi;
    scgi_temp_path $dir/nginx/tmp/scgi;
    include $conf;
}
EOF
}

start_nginx() {
    write_nginx_conf
    local args=(-e "$dir/logs/nginx-error.log" -p "$dir/nginx" -c "$dir/nginx/nginx.conf")
    "$nginx_bin" "${args[@]}" -t -q || die "nginx refused $dir/nginx/nginx.conf"
    "$nginx_bin" "${args[@]}" </dev/null >>"$dir/logs/nginx-error.log" 2>&1 ||
        die "nginx did not start: $(tail -n 2 "$dir/logs/nginx-error.log")"
    wait_http "http://127.0.0.1:$http_port/readyz" 20 ||
        die "no answer through nginx after 20 s: see $dir/logs/nginx-error.log"
}

cmd_start() {
    http_port=8080 app_port=8000 pg_port=5432 db_kind=postgresql
    while [ $# -gt 0 ]; do
        case "$1" in
            --http-port) http_port="$2"; shift 2 ;;
            --app-port) app_port="$2"; shift 2 ;;
            --pg-port) pg_port="$2"; shift 2 ;;
            --db) db_kind="$2"; shift 2 ;;
            *) usage ;;
        esac
    done
    [ -x "$scorpion_bin" ] || die "no $scorpion_bin: run make .venv/bin/scorpion, or set APP_BIN"
    [ -x "$pg_bin/initdb" ] || die "no PostgreSQL: apt-get install postgresql (or set PG_BIN)"
    [ -x "$nginx_bin" ] || die "no nginx: apt-get install nginx (or set NGINX_BIN)"
    [ -f "$dir/app.pid" ] && kill -0 "$(cat "$dir/app.pid")" 2>/dev/null &&
        die "already running in $dir (stop it first)"
    mkdir -p "$dir/logs"
    chmod 0711 "$dir"  # the postgres and nobody users pass through; nothing here is listed
    init_env
    load_env
    printf 'http_port=%s\napp_port=%s\npg_port=%s\ndb_kind=%s\n' \
        "$http_port" "$app_port" "$pg_port" "$db_kind" >"$dir/ports"
    # Whatever fails half-way is stopped again: nothing is left running.
    trap 'cmd_stop >/dev/null 2>&1 || true' EXIT
    start_postgres
    start_app
    start_nginx
    trap - EXIT
    echo "Scorpion Race: http://127.0.0.1:$http_port (app 127.0.0.1:$app_port, $db_kind;" \
        "PostgreSQL 127.0.0.1:$pg_port)"
}

cmd_stop() {
    # nginx stops accepting (QUIT) but keeps open websockets; the app (SIGTERM) closes them
    # with 1001 "going away" through nginx and writes what is pending; then nginx's workers
    # end, and PostgreSQL stops last.
    signal_process "$dir/nginx/nginx.pid" QUIT
    signal_process "$dir/app.pid" TERM
    wait_process "$dir/app.pid" 30
    wait_process "$dir/nginx/nginx.pid" 20
    if [ -f "$dir/pg/data/postmaster.pid" ]; then
        as_postgres "$pg_bin/pg_ctl" -D "$dir/pg/data" -m fast -w -t 30 stop >/dev/null
    fi
}

load_ports() {
    [ -f "$dir/ports" ] || die "nothing was started in $dir"
    # shellcheck source=/dev/null
    . "$dir/ports"
}

cmd_status() {
    local code=0
    load_ports
    if curl -fsS --max-time 2 "http://127.0.0.1:$http_port/readyz" >/dev/null 2>&1; then
        echo "ready through nginx: http://127.0.0.1:$http_port"
    else
        echo "not ready through nginx (http://127.0.0.1:$http_port)"; code=1
    fi
    as_postgres "$pg_bin/pg_ctl" -D "$dir/pg/data" status >/dev/null && echo "PostgreSQL running" ||
        { echo "PostgreSQL stopped"; code=1; }
    return $code
}

cmd_psql() {
    load_ports
    as_postgres "$pg_bin/psql" -h "$dir/pg/run" -p "$pg_port" -U postgres -X "$@"
}

[ $# -ge 2 ] || usage
command="$1"
mkdir -p "$2"
dir="$(cd "$2" && pwd)"
shift 2
case "$command" in
    start) cmd_start "$@" ;;
    stop) cmd_stop ;;
    status) cmd_status ;;
    psql) cmd_psql "$@" ;;
    *) usage ;;
esac
