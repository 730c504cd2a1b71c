#!/usr/bin/env bash
# Start the app: install what is missing, build the engine (native + WebAssembly), build the
# web page and serve it.
#
#   bash scripts/start.sh                 # http://127.0.0.1:5173/
#   PORT=8080 HOST=0.0.0.0 bash scripts/start.sh
#   DEV=1 bash scripts/start.sh           # Vite dev server (hot reload) instead of the production build
set -euo pipefail
cd "$(dirname "$0")/.."

export HOST=${HOST:-127.0.0.1}
export PORT=${PORT:-5173}

bash scripts/setup.sh
bash scripts/build.sh

url_host=$HOST
[[ $url_host == 0.0.0.0 ]] && url_host=127.0.0.1
echo "start: serving polycube-web at http://$url_host:$PORT/ (Ctrl-C stops)"
if [[ -n ${DEV:-} ]]; then
  exec node_modules/.bin/vite --host "$HOST" --port "$PORT" --strictPort
fi
node_modules/.bin/vite build --logLevel warn
exec node_modules/.bin/vite preview --host "$HOST" --port "$PORT" --strictPort
