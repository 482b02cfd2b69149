#!/bin/bash
# scripts/testenv.sh CMD [ARGS...]
#
# Runs CMD inside a private, reproducible test environment and returns CMD's
# exit status:
#   - our own Xvfb (even when $DISPLAY works: the tests read pixels back and
#     need a known screen size, no compositor and no user windows on top);
#   - a private PulseAudio daemon with a null sink whose monitor tests record;
#   - a private session D-Bus (dbus-daemon), for the MPRIS player and its clients;
#   - an HTTP and an HTTPS test server (scripts/testserver.py) on 127.0.0.1
#     with Range support and injected faults, and a CA made for this run;
#   - private XDG cache/config/data/runtime directories, so tests never touch the
#     user's cache, key bindings or trash;
#   - as root, two small tmpfs volumes (one writable, one read-only holding a
#     picture) for the trash's per-volume rules; unmounted at the end.
# Only what this script started is stopped at the end, by PID, and its
# temporary directory is removed. Two runs at once do not collide: each picks
# its own display number, socket directory and ports.
#
# Environment knobs (all optional):
#   TESTENV_SERVICES  which services to start; default "x11 pulse dbus http https volumes"
#   TESTENV_WM        "openbox" to also run a window manager on the display
#   TESTENV_QUIET     1 to not print the environment banner on stderr
#   MEDIAVIEW_TEST_SCREEN  Xvfb screen size, default 1280x720
#   TESTENV_KEEP      1 to keep the temporary directory (for post-mortems)
#
# Exit status: CMD's, or 125 when the environment itself could not be set up.
set -u

if [ $# -eq 0 ]; then
    echo "usage: $0 CMD [ARGS...]" >&2
    exit 2
fi

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
services=" ${TESTENV_SERVICES:-x11 pulse dbus http https volumes} "
screen=${MEDIAVIEW_TEST_SCREEN:-1280x720}

say() { [ "${TESTENV_QUIET:-0}" = 1 ] || echo "testenv: $*" >&2; }
die() { echo "testenv: error: $*" >&2; exit 125; }
wants() { [[ $services == *" $1 "* ]]; }

# A short path under /tmp: AF_UNIX socket paths are limited to 108 bytes.
work=$(mktemp -d /tmp/mvtest.XXXXXX) || die "cannot create a temporary directory"
chmod 700 "$work"

# PIDs we started, in start order; stopped in reverse so clients go before
# the servers they talk to.
pids=()
names=()
cmd_pid=
guard_pid=
xvfb_display=

# Stops the given PIDs: SIGTERM to all at once (so the waits overlap), then
# up to 5 s for each to go, then SIGKILL for any that ignored it.
stop_pids() {
    local pid i
    [ $# -gt 0 ] || return 0
    kill -TERM "$@" 2>/dev/null
    for pid in "$@"; do
        for i in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            nap 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            echo "testenv: pid $pid ignored SIGTERM; killing it" >&2
            kill -KILL "$pid" 2>/dev/null
        fi
        wait "$pid" 2>/dev/null
    done
    return 0
}

cleanup() {
    local status=$?
    trap - EXIT
    trap '' TERM  # a second signal must not cut the cleanup short
    # CMD first, so no test is still talking to a server being stopped.
    [ -n "$cmd_pid" ] && stop_pids "$cmd_pid"
    stop_pids "${pids[@]}"
    # A SIGKILLed Xvfb leaves its lock and socket behind and the number would
    # look taken forever; remove them, but only if the lock names our server.
    if [ -n "$xvfb_display" ] && [ "$(cat "/tmp/.X$xvfb_display-lock" 2>/dev/null | tr -d ' ')" = "${xvfb_pid:-x}" ]; then
        rm -f "/tmp/.X$xvfb_display-lock" "/tmp/.X11-unix/X$xvfb_display"
    fi
    unmount_volumes
    # The watcher goes last: if we are SIGKILLed mid-cleanup, it finishes.
    [ -n "$guard_pid" ] && { kill -USR1 "$guard_pid" 2>/dev/null; wait "$guard_pid" 2>/dev/null; }
    # SwiftPM keeps lock files in the temp dir, named after the cache and
    # config directories we pointed XDG_* at; they would pile up, one pair a run.
    rm -f "${TMPDIR:-/tmp}/${work//\//_}_"*.lock
    if [ "${TESTENV_KEEP:-0}" = 1 ]; then
        echo "testenv: kept $work" >&2
    else
        rm -rf "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
# Ctrl-C is ignored here on purpose: it still stops CMD (which gets the
# default disposition back, below), after which we exit with its status and
# clean up. A trap on SIGINT would run while bash waits for children, and
# bash 5.2 has been seen to block forever in wait4() in exactly that case,
# with the trap never run. SIGTERM (timeout, kill) is trapped as usual.
trap '' INT
trap 'exit 143' TERM

# Sleep in the background and wait for it with the builtin: a signal then
# runs its trap at once instead of after the sleep.
nap() {
    sleep "$1" &
    wait $! 2>/dev/null
}

# Services run under setsid, out of our process group: a Ctrl-C then reaches
# only this script and CMD, and the services are stopped in order by cleanup
# instead of all dying at once. (Several children dying together on SIGINT
# has left bash 5.2 blocked in wait4() until the last one exited, trap unrun.)
# setsid execs in place here (an async child is no group leader), so $! is
# the service's own PID.
started() { # pid name
    pids+=("$1")
    names+=("$2")
    echo "$1" >>"$work/pids"
}

unstarted() { # forget the last one: it died by itself, and its PID may be reused
    unset 'pids[-1]' 'names[-1]'
    printf '%s\n' "${pids[@]}" >"$work/pids"
}

# If this script is SIGKILLed its traps never run. This watcher then stops
# whatever we had started (listed in $work/pids as we go) and removes our
# directory, so nothing outlives us by more than a few seconds. It runs from
# the very start, because a kill can come while services are still starting.
start_guard() {
    : >"$work/pids"
    (
        # Ctrl-C and timeout(1) signal our whole process group; the watcher
        # must survive both, since the services (in their own sessions) do.
        # Cleanup dismisses it with SIGUSR1 when it is no longer needed.
        trap - EXIT
        trap '' INT TERM HUP
        trap 'exit 0' USR1
        while kill -0 $$ 2>/dev/null; do sleep 1; done
        mapfile -t orphans <"$work/pids"
        if [ ${#orphans[@]} -gt 0 ]; then
            kill -TERM "${orphans[@]}"
            sleep 3
            kill -KILL "${orphans[@]}"
        fi
        # rm -rf must never run into a mounted volume (a read-only one stops it).
        [ -s "$work/mounts" ] && xargs -r -d '\n' umount -l <"$work/mounts"
        rm -rf "$work"
    ) </dev/null >/dev/null 2>&1 &
    guard_pid=$!
}

# ---------------------------------------------------------------- X server
start_xvfb() {
    command -v Xvfb >/dev/null || die "Xvfb not installed (make deps)"
    command -v xdpyinfo >/dev/null || die "xdpyinfo not installed (make deps)"
    local n pid i
    for n in $(seq 90 199); do
        [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ] && continue
        # -noreset: the server would otherwise reset (dropping atoms and root
        # properties) each time the last client disconnects, between tests.
        setsid Xvfb ":$n" -screen 0 "${screen}x24" -nolisten tcp -noreset -dpi 96 \
            +extension MIT-SHM +extension RANDR >"$work/xvfb.log" 2>&1 &
        pid=$!
        started "$pid" "Xvfb :$n"
        xvfb_pid=$pid xvfb_display=$n  # lets cleanup remove a stale lock of ours
        for i in $(seq 100); do
            # Another run may have taken the same number between our check and
            # Xvfb's lock; then ours exits and xdpyinfo would reach *theirs*.
            # The lock file holding our PID is the proof the display is ours.
            if ! kill -0 "$pid" 2>/dev/null; then
                wait "$pid" 2>/dev/null
                unstarted
                pid= xvfb_pid= xvfb_display=
                break
            fi
            if [ "$(cat "/tmp/.X$n-lock" 2>/dev/null | tr -d ' ')" = "$pid" ] &&
                DISPLAY=":$n" xdpyinfo >/dev/null 2>&1; then
                export DISPLAY=":$n"
                export MEDIAVIEW_TEST_DISPLAY_OWNED=1
                export MEDIAVIEW_TEST_SCREEN=$screen
                return 0
            fi
            nap 0.1
        done
        if [ -n "$pid" ]; then
            kill -KILL "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
            tail -5 "$work/xvfb.log" >&2
            die "Xvfb :$n did not answer within 10 s"
        fi
    done
    tail -5 "$work/xvfb.log" >&2
    die "no free X display number in 90..199"
}

start_wm() {
    command -v openbox >/dev/null || die "openbox not installed (make deps)"
    setsid openbox --sm-disable >"$work/openbox.log" 2>&1 &
    local pid=$! i
    started "$pid" "openbox"
    # The WM is ready once it has claimed the EWMH supporting-WM property.
    for i in $(seq 100); do
        xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q 'window id' && {
            export MEDIAVIEW_TEST_WM=openbox
            return 0
        }
        kill -0 "$pid" 2>/dev/null || break
        nap 0.1
    done
    tail -5 "$work/openbox.log" >&2
    die "openbox did not start"
}

# -------------------------------------------------------------- PulseAudio
start_pulse() {
    command -v pulseaudio >/dev/null || die "pulseaudio not installed (make deps)"
    command -v pactl >/dev/null || die "pactl not installed (make deps)"
    local dir="$work/pulse" pid i
    mkdir -m 700 "$dir"
    # Only the modules tests need: no hardware probing, no X11 or D-Bus
    # integration, anonymous auth on a socket only this run knows about.
    cat >"$dir/default.pa" <<EOF
load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/native
load-module module-null-sink sink_name=mvtest rate=48000 channels=2 sink_properties=device.description=mediaview-test-sink
set-default-sink mvtest
set-default-source mvtest.monitor
EOF
    # Clients must never autospawn a daemon of their own (e.g. a test that
    # unsets PULSE_SERVER to check the no-audio path).
    printf 'autospawn = no\n' >"$dir/client.conf"

    # Running as root: pulseaudio only *warns* in per-user mode ("not intended
    # to be run as root"); --system is not needed and would want the pulse
    # user, a D-Bus system bus and /var/run. HOME, XDG_RUNTIME_DIR and
    # PULSE_RUNTIME_PATH point into our directory so it writes its cookie and
    # state there, not into the real home. DISPLAY is removed and D-Bus
    # disabled so it does not try to autolaunch a session bus that would
    # outlive us. No pid file: several daemons may run at once.
    env -u DISPLAY HOME="$dir" XDG_RUNTIME_DIR="$dir" PULSE_RUNTIME_PATH="$dir" \
        PULSE_STATE_PATH="$dir" DBUS_SESSION_BUS_ADDRESS=disabled: \
        setsid pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit \
        --use-pid-file=no --realtime=no --high-priority=no --disable-shm=no \
        --log-target=file:"$dir/pulse.log" -F "$dir/default.pa" \
        </dev/null >"$dir/pulse.stdout" 2>&1 &
    pid=$!
    started "$pid" "pulseaudio"
    export PULSE_SERVER="unix:$dir/native"
    export PULSE_CLIENTCONFIG="$dir/client.conf"
    for i in $(seq 100); do
        if pactl info >/dev/null 2>&1; then
            keep_sink_running "$dir"
            export MEDIAVIEW_TEST_SINK=mvtest
            export MEDIAVIEW_TEST_MONITOR=mvtest.monitor
            export MEDIAVIEW_TEST_PULSE_LOG="$dir/pulse.log"
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        nap 0.1
    done
    tail -5 "$dir/pulse.log" "$dir/pulse.stdout" >&2
    die "pulseaudio did not start"
}

# An idle null sink renders 2 s of silence ahead (its largest latency), and a
# stream that connects then waits until that silence has "played": every first
# sound, and every restart after a seek, came 1-2 s late, which no real sound
# card does (they rewind). A silent 10 ms stream keeps the sink at a small
# latency, and a suspend/resume drops what it had already rendered ahead. The
# zeros it plays add nothing to what the tests record from the monitor.
keep_sink_running() { # dir
    local i
    setsid pacat --playback --raw --format=s16le --rate=48000 --channels=2 --latency-msec=10 \
        --stream-name=testenv-keep-sink-running /dev/zero </dev/null >"$1/keeper.log" 2>&1 &
    started "$!" "pacat keeper"
    for i in $(seq 50); do
        pactl list short sink-inputs 2>/dev/null | grep -q . && break
        nap 0.02
    done
    pactl suspend-sink mvtest 1 && pactl suspend-sink mvtest 0 || die "cannot restart the null sink"
}

# ------------------------------------------------------------- session bus
# A bus of the session type with its own configuration rather than the system's
# session.conf: that one listens in /tmp under a random name and starts services
# on demand (playerctld, say) that would outlive us. Ours listens on a socket in
# our directory, starts nothing, and lets this user do everything, as a desktop
# session's bus does.
start_dbus() {
    command -v dbus-daemon >/dev/null || die "dbus-daemon not installed (make deps)"
    local dir="$work/dbus" pid i
    mkdir -m 700 "$dir"
    cat >"$dir/session.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$dir/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
EOF
    setsid dbus-daemon --config-file="$dir/session.conf" --nofork --nopidfile \
        </dev/null >"$dir/dbus.log" 2>&1 &
    pid=$!
    started "$pid" "dbus-daemon"
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$dir/bus"
    for i in $(seq 100); do
        if [ -S "$dir/bus" ] && dbus-send --session --dest=org.freedesktop.DBus --print-reply \
            /org/freedesktop/DBus org.freedesktop.DBus.GetId >/dev/null 2>&1; then
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        nap 0.1
    done
    tail -5 "$dir/dbus.log" >&2
    die "dbus-daemon did not start"
}

# ------------------------------------------------------------ HTTP(S) server
make_ca() { # dir: a CA and a server certificate for 127.0.0.1 and localhost
    local d=$1
    command -v openssl >/dev/null || die "openssl not installed (make deps)"
    # EC keys: generating them is instant, RSA would cost a second of CPU.
    (
        cd "$d" &&
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
                -keyout ca.key -out ca.pem -days 2 -subj "/CN=mediaview test CA $$" \
                -addext "basicConstraints=critical,CA:TRUE" \
                -addext "keyUsage=critical,keyCertSign,cRLSign" &&
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
                -keyout server.key -out server.csr -subj "/CN=127.0.0.1" &&
            printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" \
                "basicConstraints=CA:FALSE" "extendedKeyUsage=serverAuth" >server.ext &&
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
                -days 2 -extfile server.ext -out server.pem
    ) >"$d/openssl.log" 2>&1 || { cat "$d/openssl.log" >&2; die "could not make the test CA"; }
    rm -f "$d/ca.key" "$d/server.csr"  # nothing else may be signed with it
}

start_http() {
    # The Debian interpreter (make deps) rather than whatever shim is first in
    # PATH: a pyenv shim alone costs ~0.3 s of CPU before Python starts.
    local py=/usr/bin/python3
    [ -x "$py" ] || py=$(command -v python3) || die "python3 not installed (make deps)"
    local root="$work/http-root" tls=() pid i port
    mkdir -p "$root"
    # The demo files are there from the start, so a test (or a person) has
    # real media to fetch without writing fixtures first.
    cp "$repo"/assets/demo/* "$root"/ 2>/dev/null
    if wants https; then
        mkdir "$work/tls"
        make_ca "$work/tls"
        tls=(--cert "$work/tls/server.pem" --key "$work/tls/server.key")
    fi
    setsid "$py" "$repo/scripts/testserver.py" "$root" --port-file "$work/http.ports" \
        --log "$work/http.log" --parent-pid $$ "${tls[@]}" \
        </dev/null >"$work/http.stderr" 2>&1 &
    pid=$!
    started "$pid" "testserver.py"
    for i in $(seq 100); do
        [ -s "$work/http.ports" ] && break
        kill -0 "$pid" 2>/dev/null || break
        nap 0.1
    done
    [ -s "$work/http.ports" ] || { cat "$work/http.stderr" >&2; die "the HTTP test server did not start"; }
    touch "$work/http.log"
    while read -r scheme port; do
        case $scheme in
        http) export MEDIAVIEW_TEST_HTTP="http://127.0.0.1:$port" ;;
        https)
            export MEDIAVIEW_TEST_HTTPS="https://127.0.0.1:$port"
            export MEDIAVIEW_TEST_CA="$work/tls/ca.pem"
            ;;
        esac
    done <"$work/http.ports"
    export MEDIAVIEW_TEST_HTTP_ROOT="$root"
    export MEDIAVIEW_TEST_HTTP_LOG="$work/http.log"
}

# ----------------------------------------------------------------- volumes
# The trash puts a file from another volume into that volume's own .Trash-$UID and
# must refuse (leaving the file) where none can be made. Two tmpfs mounts make such
# volumes: one writable, one read-only with a picture on it. Mounting needs root;
# without it the tests that need them fail and say so.
mounted=()
start_volumes() {
    if [ "$(id -u)" != 0 ]; then
        say "not root: no test volumes (the trash's volume tests will fail)"
        return 0
    fi
    local v="$work/volume" ro="$work/volume-ro"
    mkdir -m 755 "$v" "$ro"
    mount -t tmpfs -o size=16m,mode=755 mvtest-volume "$v" || die "cannot mount a tmpfs volume at $v"
    mounted+=("$v")
    echo "$v" >>"$work/mounts"
    mount -t tmpfs -o size=4m,mode=755 mvtest-readonly "$ro" || die "cannot mount a tmpfs volume at $ro"
    mounted+=("$ro")
    echo "$ro" >>"$work/mounts"
    cp "$repo/assets/demo/01-still.jpg" "$ro/still.jpg" || die "no demo picture to put on the read-only volume"
    mount -o remount,ro "$ro" || die "cannot make $ro read-only"
    export MEDIAVIEW_TEST_VOLUME="$v"
    export MEDIAVIEW_TEST_READONLY_VOLUME="$ro"
}

unmount_volumes() {
    local m
    for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
    mounted=()
    : >"$work/mounts"
}

# -------------------------------------------------------------------- main
# Private per-user directories: tests must not read the user's key bindings
# or fill (or be fooled by) the user's real cache.
mkdir -m 700 "$work/cache" "$work/config" "$work/data" "$work/runtime" "$work/tmp"
export XDG_CACHE_HOME="$work/cache"
export XDG_DATA_HOME="$work/data"
export XDG_CONFIG_HOME="$work/config"
export XDG_STATE_HOME="$work/state"
export XDG_RUNTIME_DIR="$work/runtime"
export MEDIAVIEW_TEST_TMP="$work/tmp"
export MEDIAVIEW_ASSETS="$repo/assets"
export MEDIAVIEW_TEST_ENV="$work"

start_guard

if wants x11; then start_xvfb; fi
if [ "${TESTENV_WM:-}" = openbox ]; then
    wants x11 || die "TESTENV_WM needs the x11 service"
    start_wm
fi
if wants pulse; then start_pulse; fi
# Without our bus, none: the tests must never reach the user's own session bus.
if wants dbus; then start_dbus; else unset DBUS_SESSION_BUS_ADDRESS; fi
if wants http || wants https; then start_http; fi
if wants volumes; then start_volumes; fi

say "DISPLAY=${DISPLAY:-} PULSE_SERVER=${PULSE_SERVER:-} DBUS=${DBUS_SESSION_BUS_ADDRESS:-} HTTP=${MEDIAVIEW_TEST_HTTP:-} HTTPS=${MEDIAVIEW_TEST_HTTPS:-} dir=$work"

# CMD runs in the background and we wait for it, because bash defers traps
# until a foreground child exits: a SIGTERM (from timeout, say) must reach the
# cleanup at once. Bash starts background jobs with stdin from /dev/null and
# SIGINT/SIGQUIT ignored; 0<&0 and env --default-signal undo both, so CMD and
# the programs the tests spawn behave as in the foreground (a test may well
# check how mediaview handles Ctrl-C).
env --default-signal=INT,QUIT "$@" 0<&0 &
cmd_pid=$!
echo "$cmd_pid" >>"$work/pids"  # the watcher stops CMD too if we are SIGKILLed
wait "$cmd_pid" 2>/dev/null  # no "Terminated" job notice: the status says it
status=$?
cmd_pid=
exit "$status"
