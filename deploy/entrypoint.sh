#!/bin/sh
# The production image's commands: `http`, `worker`, `web` or `migrate`. Each runs the API package's
# script of that name (its Node flags included, the built JavaScript: deploy/production-scripts.mjs),
# with Node in place of this shell, so signals reach the process itself. The Node of the PATH must be
# the major version the API's package.json names (engines): another one is refused before it runs
# anything, as a migration run by the wrong Node would go unnoticed.
set -eu
cd "$(dirname "$0")/../api"
command=${1:-http}
case "$command" in
  http | worker | web | migrate) ;;
  *)
    echo "usage: mailroom http|worker|web|migrate" >&2
    exit 64
    ;;
esac
if ! command -v node >/dev/null 2>&1; then
  echo "mailroom: no node on the PATH (Node 24 is required)" >&2
  exit 69
fi
# Plain ES5 on purpose: it must run, and refuse, on any Node.
script=$(node -e '
var manifest = JSON.parse(require("fs").readFileSync("package.json", "utf8"));
var wanted = manifest.engines.node.split(".")[0];
var running = process.versions.node.split(".")[0];
if (running !== wanted) {
  process.stderr.write("mailroom: Node " + wanted + " is required, and the node on the PATH (" + process.execPath + ") is " + process.version + ": put Node " + wanted + " first on the PATH\n");
  process.exit(69);
}
process.stdout.write(manifest.scripts[process.argv[1]]);
' "$command") || exit $?
eval "exec $script"
