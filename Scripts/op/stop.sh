#!/bin/bash
# Stop the instance that start.sh started, by the PID it recorded.  env: OP_DIR (/dev/shm/swift-haapi-op)
set -u
. "$(dirname "$0")/common.sh"
PIDF="$OP_DIR/glewlwyd.pid"
[ -f "$PIDF" ] || { echo "stop: not running (no $PIDF)"; exit 0; }
PID=$(cat "$PIDF")
if kill -0 "$PID" 2>/dev/null; then
  kill -TERM "$PID"
  for _ in $(seq 1 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$PID" 2>/dev/null; then kill -KILL "$PID"; fi
  echo "stop: glewlwyd (pid $PID) stopped"
else
  echo "stop: pid $PID was not running"
fi
rm -f "$PIDF"
