# syntax=docker/dockerfile:1
# One image per service, built from the whole workspace so the shared packages (contracts, kit) come
# along:  docker build -f deploy/docker/service.Dockerfile --build-arg SERVICE=auth -t leadforge/auth .
# TypeScript runs through tsx's loader (no compile step: workspace packages export their src/*.ts);
# tsx is installed on its own in /opt/tsx, the service's node_modules hold production packages only.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# The sources without tests, and the package manifests alone, so the dependency layer is rebuilt
# only when a manifest changes.
FROM ${NODE_IMAGE} AS source
WORKDIR /src
COPY . .
RUN rm -rf services/*/test \
 && mkdir /manifests \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /manifests/ \; \
 && cp package-lock.json /manifests/

FROM ${NODE_IMAGE} AS prod-deps
ARG SERVICE
WORKDIR /app
COPY --from=source /manifests/ ./
RUN test -n "${SERVICE}" || (echo 'build with --build-arg SERVICE=<name>' >&2; exit 1) \
 && npm ci --omit=dev --workspace "@leadforge/${SERVICE}" --no-audit --no-fund \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS tsx-runtime
ARG TSX_VERSION=4.23.15
WORKDIR /opt/tsx
RUN echo '{"private":true}' > package.json \
 && npm install --omit=dev --no-audit --no-fund "tsx@${TSX_VERSION}" \
 && npm cache clean --force

FROM ${NODE_IMAGE}
ARG SERVICE
ENV NODE_ENV=production \
    LEADFORGE_SERVICE=${SERVICE} \
    SERVICE_HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=tsx-runtime /opt/tsx /opt/tsx
COPY --from=prod-deps /app/ ./
COPY --from=source /src/services/contracts/ services/contracts/
COPY --from=source /src/services/kit/ services/kit/
COPY --from=source /src/services/${SERVICE}/ services/${SERVICE}/
COPY --from=source /src/deploy/docker/runService.ts deploy/docker/runService.ts
USER 1000:1000
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "--import", "/opt/tsx/node_modules/tsx/dist/loader.mjs", "deploy/docker/runService.ts"]
