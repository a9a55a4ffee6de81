# The site's container image: the production build and its production dependencies, run as a
# user without privileges (docs/operations.md, "Putting it online: containers";
# docs/decisions/067-a-container-and-a-server-recipe.md).
#
#   docker build -t kilele-site .            (or: podman build --format docker -t kilele-site .)
#   docker run -p 3000:3000 -v kilele-data:/data -v kilele-backups:/backups kilele-site
#
# BASE_IMAGE is any Debian-based image with Node 20.19+ (or 22.12+) and npm on its PATH. The
# container test (npm run test:container) builds one locally and passes it here.
ARG BASE_IMAGE=docker.io/library/node:20-bookworm-slim

# ---- Build: every dependency, the pictures and the app, then the development tools pruned away.
FROM ${BASE_IMAGE} AS build
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
# The download cache outlives the build, so a changed lockfile fetches only what changed. A registry
# reached through a proxy that inspects TLS needs that proxy's certificate authority: pass it as
# the build secret `ca` (--secret id=ca,src=ca.crt); it is not kept in the image.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
  --mount=type=secret,id=ca,target=/run/secrets/ca.crt \
  if [ -f /run/secrets/ca.crt ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca.crt; fi; npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

# ---- Run: what `npm start` runs after its build step, nothing that builds.
FROM ${BASE_IMAGE}
# One user of the site's own, the same number on every base, owning only the two data folders.
RUN groupadd --system --gid 10001 kilele \
  && useradd --system --uid 10001 --gid kilele --create-home --home-dir /home/kilele --shell /usr/sbin/nologin kilele \
  && mkdir -p /data /backups \
  && chown kilele:kilele /data /backups \
  && chmod 700 /data /backups
WORKDIR /app
# The site: its server and browser builds, its production dependencies, the starting content, the
# migrations, and the logo its e-mails carry.
COPY --from=build /app/package.json /app/package-lock.json /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/content ./content
COPY --from=build /app/public/favicon.svg ./public/favicon.svg
# The operator's commands (npm run staff, npm run content, ...) run their TypeScript with tsx, a
# production dependency: they need the sources they import.
COPY --from=build /app/app ./app
COPY --from=build /app/db ./db
COPY --from=build /app/scripts ./scripts
# The code belongs to root and is only read; the site writes to /data and /backups alone.
USER kilele
ENV NODE_ENV=production \
  MALLOC_ARENA_MAX=2 \
  PORT=3000 \
  DATA_DIR=/data \
  BACKUP_DIR=/backups \
  npm_config_update_notifier=false
VOLUME ["/data", "/backups"]
EXPOSE 3000
# /healthz answers while the process does. Node asks, since the image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz',{signal:AbortSignal.timeout(4000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# Node itself is process 1, so `docker stop`'s SIGTERM reaches the site, which finishes its
# requests and closes the database. The flags are `npm start`'s (package.json).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=10", "build/server/index.js"]
