#!/bin/sh
# Run by the nginx image's entrypoint (mounted into /docker-entrypoint.d/ by compose.yaml):
# the site is deploy/nginx.conf with the app's compose address (every replica, re-resolved),
# and nginx gets enough connections for the app's 20000 websockets (two each: the
# browser's and the app's).
set -eu
site=/etc/nginx/conf.d/default.conf
# "app" is re-resolved through Docker's DNS every 10 s (nginx >= 1.27.3: the server's
# "resolve"), so replicas started, restarted or scaled later get traffic without a reload.
{
    echo 'resolver 127.0.0.11 valid=10s ipv6=off;'
    sed 's/server 127\.0\.0\.1:8000;/server app:8000 resolve;/' /etc/scorpion/nginx.conf
} >"$site"
# Without IPv6 in the kernel, listening on [::] fails: keep IPv4 only.
[ -f /proc/net/if_inet6 ] || sed -i 's/listen \[::\]:[^;]*;//' "$site"
sed -i 's/worker_connections[[:space:]]*[0-9]*;/worker_connections 45000;/' /etc/nginx/nginx.conf
