#!/bin/sh
# Removes what a production node_modules keeps after install but never loads: better-sqlite3's
# compiler inputs and intermediate objects (its SQLite amalgamation, C++ sources, object files),
# about 25 MB of the tree, keeping build/Release/better_sqlite3.node, the one file it loads.
# Run by the Dockerfile's build stage and by scripts/production-tree.ts, on the same tree.
#   sh scripts/trim-node-modules.sh node_modules
set -eu
modules="${1:?usage: trim-node-modules.sh NODE_MODULES_DIR}"
addon="$modules/better-sqlite3"
test -f "$addon/build/Release/better_sqlite3.node" || { echo "no compiled better-sqlite3 in $addon" >&2; exit 1; }
rm -rf "$addon/deps" "$addon/src" "$addon/build/deps" "$addon/build/Release/obj" "$addon/build/Release/obj.target" \
  "$addon/build/Release/.deps" "$addon/build/Release/sqlite3.a" "$addon/build/Release/test_extension.node"
find "$addon/build" -maxdepth 1 -type f -delete
