#!/usr/bin/env bash
# One load run the way docs/BENCHMARKS.md measures: a fresh database, a
# quiet disk, the release server, citadel-load against it, then the
# server's CPU time and a clean shutdown.
#
#   crates/load/tools/bench.sh STORE SECONDS GAMES [more citadel-load flags]
#   crates/load/tools/bench.sh sqlite 60 1000
#   crates/load/tools/bench.sh sqlite 20 0 --idle-spectators 19900
#   crates/load/tools/bench.sh fsync          # how fast the disk flushes now
#
# STORE: sqlite (a file under $BENCH_DIR), postgres (database `bench` on
# 127.0.0.1:5432, dropped and made anew) or memory.
# Environment: BENCH_DIR (default /tmp/citadel-bench), PRELOAD (a shim for
# the server, e.g. slow_fsync.so), WORKERS (Tokio worker threads, default
# the runtime's own), RUST_LOG (default warn).
#
# Build first: cargo build --release -p citadel -p citadel-load
set -euo pipefail
cd "$(dirname "$0")/../../.."
dir=${BENCH_DIR:-/tmp/citadel-bench}
addr=127.0.0.1:18081

# The flush time of this disk: fsync after a 4 KiB write, 2,000 times.
fsync_probe() {
    mkdir -p "$dir"
    python3 - "$dir/fsync-probe" <<'EOF'
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT)
times = []
for _ in range(2000):
    os.write(fd, b"x" * 4096)
    t = time.perf_counter()
    os.fsync(fd)
    times.append(time.perf_counter() - t)
os.close(fd)
os.remove(sys.argv[1])
times.sort()
print("fsync_ms p50=%.3f p99=%.3f max=%.3f" % (times[1000] * 1e3, times[1980] * 1e3, times[-1] * 1e3))
EOF
}

if [ "${1:-}" = fsync ]; then
    fsync_probe
    exit 0
fi
if [ $# -lt 3 ]; then
    sed -n 6,10p "$0" >&2
    exit 2
fi
store=$1 seconds=$2 games=$3
shift 3

rm -rf "$dir/db" && mkdir -p "$dir/db"
case "$store" in
    sqlite) url="sqlite://$dir/db/citadel.db" ;;
    postgres)
        psql -q -h 127.0.0.1 -U postgres -d test -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench" >/dev/null
        url="postgres://postgres@127.0.0.1:5432/bench" ;;
    memory) url="memory:" ;;
    *) echo "STORE is sqlite, postgres or memory" >&2; exit 2 ;;
esac

# A run right after a build shares the disk with its write-back.
sync
sleep 2

env ${WORKERS:+TOKIO_WORKER_THREADS=$WORKERS} ${PRELOAD:+LD_PRELOAD=$PRELOAD} \
    RUST_LOG="${RUST_LOG:-warn}" \
    target/release/citadel --addr "$addr" --database-url "$url" >"$dir/server.log" 2>&1 &
server=$!
trap 'kill -INT $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    curl -sf "http://$addr/healthz" >/dev/null && break
    sleep 0.1
done

status=0
/usr/bin/time -f "load_cpu_s=%U+%S" target/release/citadel-load --url "http://$addr" \
    --games "$games" --players-per-game 4 --spectators-per-game 2 --rate 1 \
    --duration "$seconds" "$@" || status=$?
# utime + stime of the server, in clock ticks.
awk -v hz="$(getconf CLK_TCK)" '{ printf "server_cpu_s=%.1f\n", ($14 + $15) / hz }' "/proc/$server/stat"
kill -INT $server
wait $server || true
trap - EXIT
exit $status
