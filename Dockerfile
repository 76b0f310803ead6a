# syntax=docker/dockerfile:1
# One image for every process of Mailroom; the command chooses which (README, "Production"):
#   http     the API (HTTP_PROCESSES processes on PORT)
#   worker   the queue consumers (HEALTH_PORT for probes)
#   web      the shell and the remotes' built files, with /config.json and /remotes.json
#   migrate  applies pending migrations and exits
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
RUN npm install -g pnpm@10.34.9
WORKDIR /src
# Dependencies first, so a code change reuses this layer.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
# Fixes to dependencies, applied by pnpm install (package.json, pnpm.patchedDependencies).
COPY patches/ patches/
COPY api/package.json api/
COPY shell/package.json shell/
COPY mfe-audiences/package.json mfe-audiences/
COPY mfe-templates/package.json mfe-templates/
COPY mfe-campaigns/package.json mfe-campaigns/
COPY mfe-reports/package.json mfe-reports/
COPY packages/api-client/package.json packages/api-client/
COPY packages/mf-contract/package.json packages/mf-contract/
COPY packages/rspack-config/package.json packages/rspack-config/
COPY packages/static-server/package.json packages/static-server/
COPY packages/ui/package.json packages/ui/
COPY tests/package.json tests/
RUN pnpm install --frozen-lockfile
COPY . .
# pnpm build builds the API's JavaScript too (api/dist): the final stage holds no TypeScript and no compiler.
RUN pnpm build && sh deploy/production-tree.sh /out

FROM ${NODE_IMAGE}
# PORT is 8080 by default, here and outside the image (api/src/config.ts).
ENV NODE_ENV=production \
    IMPORT_DIR=/var/lib/mailroom/imports
# The files belong to root and are read-only to the process; only the import spool is its own. Nothing
# else is written: the root filesystem may be read-only, with no writable /tmp (tests/deploy).
RUN groupadd --system --gid 10001 mailroom \
 && useradd --system --uid 10001 --gid mailroom --home-dir /nonexistent --shell /usr/sbin/nologin mailroom \
 && mkdir -p /var/lib/mailroom/imports \
 && chown mailroom:mailroom /var/lib/mailroom/imports
COPY --from=build /out /app
USER 10001:10001
WORKDIR /app/api
EXPOSE 8080
ENTRYPOINT ["/app/bin/mailroom"]
CMD ["http"]
