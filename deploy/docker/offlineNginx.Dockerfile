# A stand-in for the web image's pinned base (nginxinc/nginx-unprivileged) on a machine that reaches
# Debian's archive but no container registry: Debian's nginx on the Debian of the offline Node base
# (deploy/docker/offlineNodeImage.sh; Node itself left out), run the unprivileged image's way: as
# uid 101 on port 8080, pid and temp files under /tmp, logs to stdout and stderr.
#   podman build -f deploy/docker/offlineNginx.Dockerfile --build-arg NODE_IMAGE=<offline node tag> -t localhost/offline/nginx-unprivileged .
#   make images CONTAINER=podman NODE_IMAGE=<offline node tag> NGINX_IMAGE=localhost/offline/nginx-unprivileged
ARG NODE_IMAGE=localhost/offline/node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS rootfs
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light wget >/dev/null \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && rm -rf /usr/local/bin/node /usr/local/bin/npm /usr/local/bin/npx /usr/local/lib/node_modules \
 && userdel -r node \
 && groupadd --system --gid 101 nginx && useradd --system --uid 101 --gid nginx --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin nginx \
 && rm -f /etc/nginx/sites-enabled/* \
 && ln -sf /dev/stdout /var/log/nginx/access.log && ln -sf /dev/stderr /var/log/nginx/error.log \
 && chown -R 101:101 /var/log/nginx /var/lib/nginx /etc/nginx/conf.d \
 && printf '%s\n' \
   'worker_processes auto;' \
   'error_log /dev/stderr notice;' \
   'pid /tmp/nginx.pid;' \
   'events { worker_connections 1024; }' \
   'http {' \
   '  client_body_temp_path /tmp/client_temp;' \
   '  proxy_temp_path /tmp/proxy_temp;' \
   '  fastcgi_temp_path /tmp/fastcgi_temp;' \
   '  uwsgi_temp_path /tmp/uwsgi_temp;' \
   '  scgi_temp_path /tmp/scgi_temp;' \
   '  include /etc/nginx/mime.types;' \
   '  default_type application/octet-stream;' \
   '  access_log /dev/stdout;' \
   '  sendfile on;' \
   '  keepalive_timeout 65;' \
   '  include /etc/nginx/conf.d/*.conf;' \
   '}' >/etc/nginx/nginx.conf

# One layer without the Node base's files.
FROM scratch
COPY --from=rootfs / /
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
USER 101:101
EXPOSE 8080
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
