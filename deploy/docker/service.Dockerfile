# syntax=docker/dockerfile:1
# One image per service, built from the whole workspace so the shared packages (contracts, kit) come
# along:  docker build -f deploy/docker/service.Dockerfile --build-arg SERVICE=auth -t leadforge/auth .
# The services run compiled to JavaScript (scripts/buildServices.mjs: tsc emits each workspace's dist/,
# chosen by the leadforge-dist export condition), no loader; TypeScript lives only in the build stage,
# the service's node_modules hold production packages only. What runs is a distroless Node base: Node
# and the libraries it links, no shell, no package manager, no npm (RUNTIME_IMAGE; offline stand-in
# deploy/docker/offlineNodeRuntime.Dockerfile). The embedded database (PGlite) of `npm start` never runs
# in an image (production refuses to start without DATABASE_URL), so it is left out.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim
ARG RUNTIME_IMAGE=gcr.io/distroless/nodejs20-debian12:nonroot

# The sources without tests, and the package manifests alone, so the dependency layer is rebuilt
# only when a manifest changes.
FROM ${NODE_IMAGE} AS source
WORKDIR /src
COPY . .
RUN rm -rf services/*/test packages/*/test \
 && mkdir /manifests \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} /manifests/ \; \
 && cp package-lock.json /manifests/

FROM ${NODE_IMAGE} AS prod-deps
ARG SERVICE
WORKDIR /app
COPY --from=source /manifests/ ./
# npm's download cache is shared by every service's build (a cache mount, never part of a layer), so
# the registry is read once per package, not once per image.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    test -n "${SERVICE}" || (echo 'build with --build-arg SERVICE=<name>' >&2; exit 1) \
 && npm ci --omit=dev --workspace "@leadforge/${SERVICE}" --no-audit --no-fund --prefer-offline
# Only what ships is copied from this stage, so removing here keeps the install's layer reusable.
RUN rm -rf node_modules/@electric-sql node_modules/knex-pglite

# Emits JavaScript only (noCheck: the types are checked by `npm run typecheck`, not here), with the
# compiler the workspace's package.json names @typescript/native (docs/decisions.md).
FROM ${NODE_IMAGE} AS build
ARG TYPESCRIPT_VERSION=7.1.0-beta
WORKDIR /src
COPY --from=source /src/ ./
RUN mkdir /opt/tsc \
 && echo '{"private":true}' > /opt/tsc/package.json \
 && npm install --prefix /opt/tsc --omit=dev --no-audit --no-fund "@typescript/native@npm:typescript@${TYPESCRIPT_VERSION}" \
 && ln -s /opt/tsc/node_modules node_modules \
 && node scripts/buildServices.mjs

FROM ${RUNTIME_IMAGE}
ARG SERVICE
ENV NODE_ENV=production \
    LEADFORGE_SERVICE=${SERVICE} \
    SERVICE_HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=prod-deps /app/ ./
COPY --from=build /src/packages/contracts/dist/ packages/contracts/dist/
COPY --from=build /src/packages/kit/dist/ packages/kit/dist/
COPY --from=build /src/services/${SERVICE}/dist/ services/${SERVICE}/dist/
COPY --from=build /src/packages/service-runner/dist/ packages/service-runner/dist/
USER 1000:1000
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["/nodejs/bin/node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/nodejs/bin/node", "--conditions=leadforge-dist", "--enable-source-maps", "packages/service-runner/dist/runService.js"]
