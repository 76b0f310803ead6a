#!/bin/sh
# The production image's commands: `http`, `worker`, `web` or `migrate`. Each runs the API package's
# script of that name (its Node flags included), with Node in place of this shell, so signals reach
# the process itself.
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
script=$(node -e 'process.stdout.write(JSON.parse(require("node:fs").readFileSync("package.json", "utf8")).scripts[process.argv[1]])' "$command")
eval "exec $script"
