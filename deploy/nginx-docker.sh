#!/bin/sh
# Run by the nginx image's entrypoint (mounted into /docker-entrypoint.d/ by compose.yaml):
# the site is deploy/nginx.conf with the app's compose address, and nginx gets enough
# connections for the app's 20000 websockets (two each: the browser's and the app's).
set -eu
site=/etc/nginx/conf.d/default.conf
sed 's/server 127\.0\.0\.1:8000;/server app:8000;/' /etc/scorpion/nginx.conf >"$site"
# Without IPv6 in the kernel, listening on [::] fails: keep IPv4 only.
[ -f /proc/net/if_inet6 ] || sed -i 's/listen \[::\]:[^;]*;//' "$site"
sed -i 's/worker_connections[[:space:]]*[0-9]*;/worker_connections 45000;/' /etc/nginx/nginx.conf
