#!/bin/sh
# Runs a command as a container with a read-only root filesystem runs it: in a mount namespace of its
# own (private, so nothing here reaches the machine's mounts) where every mount is remounted read-only,
# but the one folder given, as user and group 10001 (the image's). Needs root (unshare -m).
#
#   unshare -m --propagation private sh tests/deploy/read-only-root.sh <writable folder> <command> [args]
set -eu
writable=$1
shift
mount --bind "$writable" "$writable"
# Every mount point (the root, /tmp, /dev/shm, the one holding the tree...), the writable one excepted.
# A bind remount changes this namespace's view only, never the filesystem itself.
awk '{ print $2 }' /proc/self/mounts | while read -r target; do
  target=$(printf '%b' "$(printf '%s' "$target" | sed 's/\\\([0-7][0-7][0-7]\)/\\0\1/g')")
  if [ "$target" != "$writable" ]; then mount -o remount,bind,ro "$target" 2>/dev/null || true; fi
done
exec setpriv --reuid 10001 --regid 10001 --clear-groups "$@"
