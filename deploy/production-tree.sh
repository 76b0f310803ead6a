#!/bin/sh
# The files of the production image, laid out as in the repository so that the API finds the
# contract and the built frontends where it always does:
#   <out>/api           the API package with its production dependencies only (pnpm deploy --prod): its
#                       built JavaScript (dist/), and package scripts that run it (no tsx, no compiler)
#   <out>/openapi.yaml  the contract the API validates requests against
#   <out>/shell/dist, <out>/mfe-*/dist   the built frontends (run `pnpm build` first)
#   <out>/bin/mailroom  the image's entry point (http, worker, web, migrate)
# The Dockerfile runs it; so does tests/deploy, with --offline (from the local store).
#
#   deploy/production-tree.sh <out> [pnpm deploy options]
set -eu
out=$1
shift
cd "$(dirname "$0")/.."
for app in shell mfe-*; do
  if [ ! -f "$app/dist/index.html" ] && [ ! -f "$app/dist/mf-manifest.json" ]; then
    echo "$app/dist is not built: run pnpm build first" >&2
    exit 1
  fi
done
if [ ! -f api/dist/http/main.js ]; then
  echo "api/dist is not built: run pnpm build first" >&2
  exit 1
fi
rm -rf "$out"
mkdir -p "$out/bin"
# pnpm 10 deploys a package with its workspace dependencies copied in ("injected"); the development
# install keeps them linked, so the setting is given for this command only.
pnpm --config.inject-workspace-packages=true deploy --filter @mailroom/api --prod "$@" "$out/api"
# The image's commands are the API's package scripts; in development they run src/ through tsx, here
# the same Node flags run dist/. Any other script (stack, build, tests) has nothing to run here.
node deploy/production-scripts.mjs "$out/api/package.json"
cp openapi.yaml "$out/openapi.yaml"
for app in shell mfe-*; do
  mkdir -p "$out/$app"
  cp -R "$app/dist" "$out/$app/dist"
done
cp deploy/entrypoint.sh "$out/bin/mailroom"
chmod 755 "$out/bin/mailroom"
