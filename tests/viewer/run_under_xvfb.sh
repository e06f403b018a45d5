#!/usr/bin/env bash
# Usage: run_under_xvfb.sh [--then CHECK ARGS... --] COMMAND ARGS...
# Runs COMMAND on a virtual X server with Mesa's software renderer, then CHECK if COMMAND
# succeeded.
# - Xvfb picks a free display itself and reports it once it accepts connections (-displayfd): no
#   race with its start-up nor with other X servers on the machine.
# - -noreset: an X server resets itself whenever its last client disconnects, and a client that
#   connects during the reset is refused. On a loaded machine (other tests running) the reset
#   lasts long enough for the viewer's first connection to fail now and then.
# When Xvfb cannot start at all the test is skipped (exit 77) with its log: that is the machine,
# not heavyball. When COMMAND fails, the X server's log is printed beside COMMAND's own output.
set -u
check=()
if [ "${1:-}" = "--then" ]; then
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do check+=("$1"); shift; done
  shift
fi
work=$(mktemp -d)
xvfb_pid=
cleanup() {
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp -noreset 3>"$work/display" 2>"$work/log" &
xvfb_pid=$!
for _ in $(seq 600); do
  [ -s "$work/display" ] && break
  if ! kill -0 "$xvfb_pid" 2>/dev/null; then
    echo "run_under_xvfb: skipped: Xvfb cannot start on this machine; its log:"
    cat "$work/log"
    xvfb_pid=
    exit 77
  fi
  sleep 0.1
done
if ! [ -s "$work/display" ]; then
  echo "run_under_xvfb: Xvfb did not accept connections within 60 s; its log:"
  cat "$work/log"
  exit 1
fi

export DISPLAY=":$(tr -d '[:space:]' <"$work/display")"
export LIBGL_ALWAYS_SOFTWARE=1
unset WAYLAND_DISPLAY XAUTHORITY
"$@"
status=$?
if [ "$status" -ne 0 ]; then
  echo "run_under_xvfb: $1 exited with status $status on display $DISPLAY; X server log:"
  cat "$work/log"
  exit "$status"
fi
[ ${#check[@]} -eq 0 ] || "${check[@]}"
