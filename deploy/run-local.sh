#!/usr/bin/env bash
# The deploy/compose.yaml topology from Debian packages, on loopback ports, in one folder:
# a PostgreSQL cluster (initdb, run as the postgres user when started as root), the app
# (`scorpion serve`: one process, or N on ports --app-port and up, sharing a redis-server),
# and nginx with a configuration generated from deploy/nginx.conf (HTTP only: the TLS parts
# are for production), whose upstream lists every app process.
#
#   deploy/run-local.sh start DIR [--http-port N] [--app-port N] [--pg-port N] [--db postgresql|sqlite]
#                                 [--redis] [--redis-port N] [--processes N]
#   deploy/run-local.sh stop DIR
#   deploy/run-local.sh status DIR
#   deploy/run-local.sh psql DIR [psql arguments]   # as the cluster's superuser
#
# Each app process runs under a supervisor (this script, `supervise`): an app that dies is
# started again after 1 s, then 2, 4... up to 30 s; one that ran 60 s counts as healthy
# again; after $RUN_LOCAL_MAX_RESTARTS (default 5) quick deaths in a row it gives up (and
# says so in the app's log). `stop` tells the supervisors, which stop their apps.
# --processes N (more than 1 needs --redis, and PostgreSQL) runs N app processes on one
# database and one redis-server (docs/scaling.md); --redis alone runs one process with it.
# Needs: apt-get install postgresql nginx curl (and redis-server for --redis). The app is $APP_BIN (default: the
# repository's .venv/bin/scorpion); it inherits SCORPION_* variables from the caller
# (e.g. SCORPION_DAILY_SEARCH=none). DIR/scorpion.env holds the generated secrets, like the
# environment file of compose.yaml. Logs: DIR/logs/. Every wait is bounded.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
# The newest PostgreSQL installed (Debian 12: 15).
pg_bin="${PG_BIN:-$(find /usr/lib/postgresql -path "*/bin/initdb" 2>/dev/null | sort -V | tail -n 1 | xargs -r dirname)}"
nginx_bin="${NGINX_BIN:-/usr/sbin/nginx}"
redis_bin="${REDIS_BIN:-/usr/bin/redis-server}"
redis_cli="$(dirname "$redis_bin")/redis-cli"
scorpion_bin="${APP_BIN:-$repo/.venv/bin/scorpion}"
max_restarts="${RUN_LOCAL_MAX_RESTARTS:-5}"
restart_delay_max=30  # seconds
healthy_after=60  # seconds an app must run for its restarts to count from 0 again

die() { echo "run-local.sh: $*" >&2; exit 1; }

usage() { sed -n '8,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

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
    # The process may remove its own pid file as it ends (redis does): gone is done.
    pid="$(cat "$pidfile" 2>/dev/null)" || return 0
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

random_hex() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

init_env() {
    if [ ! -f "$dir/scorpion.env" ]; then
        (umask 077 && cat >"$dir/scorpion.env" <<EOF
# Made by run-local.sh, like the environment file of compose.yaml: keep it secret.
SCORPION_SECRET=$(random_hex 32)
POSTGRES_PASSWORD=$(random_hex 24)
EOF
        )
    fi
    # A folder made before --redis existed gets its password now; the others stay.
    grep -q '^REDIS_PASSWORD=' "$dir/scorpion.env" ||
        echo "REDIS_PASSWORD=$(random_hex 24)" >>"$dir/scorpion.env"
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

# redis-server on a loopback port with a password (any local user could connect without
# one), nothing kept on disk: the hub only relays, the database keeps everything.
start_redis() {
    mkdir -p "$dir/redis"
    (umask 077 && printf 'requirepass %s\n' "$REDIS_PASSWORD" >"$dir/redis/redis.conf")
    "$redis_bin" "$dir/redis/redis.conf" --bind 127.0.0.1 --port "$redis_port" \
        --save '' --appendonly no --dir "$dir/redis" --daemonize yes \
        --pidfile "$dir/redis/redis.pid" --logfile "$dir/logs/redis.log" >/dev/null ||
        die "redis-server did not start: see $dir/logs/redis.log"
    local deadline=$((SECONDS + 10))
    until REDISCLI_AUTH="$REDIS_PASSWORD" timeout 2 "$redis_cli" -h 127.0.0.1 -p "$redis_port" \
        ping 2>/dev/null | grep -q PONG; do
        [ "$SECONDS" -lt "$deadline" ] || die "redis-server not answering after 10 s"
        sleep 0.2
    done
}

# The pid file and log of app process $1 (0, 1, ...): app.pid and app.log for the first.
app_name() { if [ "$1" = 0 ]; then echo app; else echo "app-$(($1 + 1))"; fi; }

start_app() {
    local db i port name redis=""
    case "$db_kind" in
        sqlite) db="$dir/app/scorpion.db" ;;
        postgresql)
            db="postgresql://scorpion:$POSTGRES_PASSWORD@127.0.0.1:$pg_port/scorpion" ;;
        *) die "--db must be sqlite or postgresql, not $db_kind" ;;
    esac
    [ "$use_redis" = 0 ] || redis="redis://:$REDIS_PASSWORD@127.0.0.1:$redis_port/0"
    mkdir -p "$dir/app" "$dir/supervise"
    for ((i = 0; i < processes; i++)); do
        port=$((app_port + i)) name="$(app_name "$i")"
        rm -f "$dir/$name.pid"
        # nginx on this host is the only proxy whose X-Forwarded-For the app believes.
        SCORPION_TRUSTED_PROXIES="${SCORPION_TRUSTED_PROXIES:-127.0.0.1}" \
        SCORPION_HOST=127.0.0.1 SCORPION_PORT="$port" SCORPION_DB="$db" SCORPION_REDIS="$redis" \
            setsid "$here/run-local.sh" supervise "$dir" "$name" \
            </dev/null >>"$dir/logs/$name.log" 2>&1 &
        echo $! >"$dir/supervise/$name.pid"
    done
    for ((i = 0; i < processes; i++)); do
        port=$((app_port + i)) name="$(app_name "$i")"
        wait_http "http://127.0.0.1:$port/readyz" 60 "$(cat "$dir/supervise/$name.pid")" ||
            die "$name ended or is not ready after 60 s: $(tail -n 3 "$dir/logs/$name.log")"
    done
}

say() { echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) run-local.sh: $*"; }

# Runs app $1 (its settings in the environment, its output to the caller's) and starts it
# again when it dies, with a growing delay, up to $max_restarts quick deaths in a row.
# TERM: stop the app (TERM: it closes its sockets with 1001) and restart nothing.
cmd_supervise() {
    local name="$1" child="" stopping=0 status started delay=1 failures=0
    trap 'stopping=1; [ -z "$child" ] || kill -TERM "$child" 2>/dev/null || true' TERM INT
    while :; do
        started=$SECONDS
        "$scorpion_bin" serve --client "$repo/client" </dev/null &
        child=$!
        echo "$child" >"$dir/$name.pid"
        while :; do  # a TERM interrupts wait: wait again until the app has ended
            status=0
            wait "$child" || status=$?
            kill -0 "$child" 2>/dev/null || break
        done
        child=""
        [ "$stopping" = 0 ] || break
        if [ $((SECONDS - started)) -ge "$healthy_after" ]; then failures=0 delay=1; fi
        failures=$((failures + 1))
        if [ "$failures" -gt "$max_restarts" ]; then
            say "$name exited with status $status; $max_restarts restarts in a row failed: giving up"
            rm -f "$dir/$name.pid"
            exit 1
        fi
        say "$name exited with status $status; restart $failures of $max_restarts in $delay s"
        sleep "$delay" &
        child=$!
        wait "$child" || true
        child=""
        [ "$stopping" = 0 ] || break
        delay=$((delay * 2 > restart_delay_max ? restart_delay_max : delay * 2))
    done
    say "$name stopped (status $status)"
}

write_nginx_conf() {
    local conf="$dir/nginx/scorpion.conf" user="" servers="" i
    mkdir -p "$dir/nginx/cache" "$dir/nginx/tmp"
    # Every app process in the upstream (a place's requests to the one its hash names).
    for ((i = 0; i < processes; i++)); do
        servers+="${servers:+\\n    }server 127.0.0.1:$((app_port + i));"
    done
    sed -e '/^[[:space:]]*#@tls-begin$/,/^[[:space:]]*#@tls-end$/d' \
        -e "s|^\([[:space:]]*\)listen 443 .*#@listen\$|\1listen 127.0.0.1:$http_port;|" \
        -e "s|server 127\.0\.0\.1:8000;.*\$|$servers|" \
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
    use_redis=0 redis_port=6379 processes=1
    while [ $# -gt 0 ]; do
        case "$1" in
            --http-port) http_port="$2"; shift 2 ;;
            --app-port) app_port="$2"; shift 2 ;;
            --pg-port) pg_port="$2"; shift 2 ;;
            --db) db_kind="$2"; shift 2 ;;
            --redis) use_redis=1; shift ;;
            --redis-port) redis_port="$2"; shift 2 ;;
            --processes) processes="$2"; shift 2 ;;
            *) usage ;;
        esac
    done
    [[ "$processes" =~ ^[1-9][0-9]?$ ]] || die "--processes must be 1-99, not $processes"
    [ "$processes" = 1 ] || [ "$use_redis" = 1 ] ||
        die "--processes $processes needs --redis (the processes share their sockets' traffic)"
    [ "$use_redis" = 0 ] || [ "$db_kind" = postgresql ] ||
        die "--redis needs --db postgresql (one database shared by every process)"
    [ -x "$scorpion_bin" ] || die "no $scorpion_bin: run make .venv/bin/scorpion, or set APP_BIN"
    [ -x "$pg_bin/initdb" ] || die "no PostgreSQL: apt-get install postgresql (or set PG_BIN)"
    [ -x "$nginx_bin" ] || die "no nginx: apt-get install nginx (or set NGINX_BIN)"
    [ "$use_redis" = 0 ] || [ -x "$redis_bin" ] ||
        die "no redis-server: apt-get install redis-server (or set REDIS_BIN)"
    [ -f "$dir/app.pid" ] && kill -0 "$(cat "$dir/app.pid")" 2>/dev/null &&
        die "already running in $dir (stop it first)"
    mkdir -p "$dir/logs"
    chmod 0711 "$dir"  # the postgres and nobody users pass through; nothing here is listed
    init_env
    load_env
    printf 'http_port=%s\napp_port=%s\npg_port=%s\ndb_kind=%s\n' \
        "$http_port" "$app_port" "$pg_port" "$db_kind" >"$dir/ports"
    printf 'use_redis=%s\nredis_port=%s\nprocesses=%s\n' \
        "$use_redis" "$redis_port" "$processes" >>"$dir/ports"
    # Whatever fails half-way is stopped again: nothing is left running.
    trap 'cmd_stop >/dev/null 2>&1 || true' EXIT
    start_postgres
    [ "$use_redis" = 0 ] || start_redis
    start_app
    start_nginx
    trap - EXIT
    local apps="app 127.0.0.1:$app_port"
    [ "$processes" = 1 ] || apps="$processes apps 127.0.0.1:$app_port-$((app_port + processes - 1))"
    [ "$use_redis" = 0 ] || apps+=", Redis 127.0.0.1:$redis_port"
    echo "Scorpion Race: http://127.0.0.1:$http_port ($apps, $db_kind;" \
        "PostgreSQL 127.0.0.1:$pg_port)"
}

cmd_stop() {
    # nginx stops accepting (QUIT) but keeps open websockets; the app (SIGTERM) closes them
    # with 1001 "going away" through nginx and writes what is pending; then nginx's workers
    # end, and PostgreSQL stops last.
    # Redis stops after the apps (they give their rooms up through the database, and
    # forwarded sockets are told to reconnect through Redis).
    # An app's supervisor passes the TERM on and restarts nothing; an app whose supervisor
    # is gone (it gave up, or was killed) is told directly.
    local pidfile name
    signal_process "$dir/nginx/nginx.pid" QUIT
    for pidfile in "$dir"/app.pid "$dir"/app-*.pid; do
        name="$(basename "$pidfile" .pid)"
        if [ -f "$dir/supervise/$name.pid" ] && kill -0 "$(cat "$dir/supervise/$name.pid")" 2>/dev/null
        then signal_process "$dir/supervise/$name.pid" TERM
        else signal_process "$pidfile" TERM
        fi
    done
    for pidfile in "$dir"/app.pid "$dir"/app-*.pid; do wait_process "$pidfile" 30; done
    for pidfile in "$dir"/supervise/*.pid; do wait_process "$pidfile" 10; done
    wait_process "$dir/nginx/nginx.pid" 20
    signal_process "$dir/redis/redis.pid" TERM
    wait_process "$dir/redis/redis.pid" 20
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
    local i name
    for ((i = 0; i < ${processes:-1}; i++)); do
        name="$(app_name "$i")"
        if curl -fsS --max-time 2 "http://127.0.0.1:$((app_port + i))/readyz" >/dev/null 2>&1
        then echo "$name ready (127.0.0.1:$((app_port + i)))"
        else echo "$name not ready (127.0.0.1:$((app_port + i)))"; code=1
        fi
    done
    if [ "${use_redis:-0}" = 1 ]; then
        [ -f "$dir/redis/redis.pid" ] && kill -0 "$(cat "$dir/redis/redis.pid")" 2>/dev/null &&
            echo "Redis running" || { echo "Redis stopped"; code=1; }
    fi
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
    supervise) cmd_supervise "$@" ;;
    *) usage ;;
esac
