#!/usr/bin/env bash
# One cluster load run the way docs/BENCHMARKS.md ("1 node against 3
# nodes") measures: a fresh Postgres database, NODES release servers on
# loopback, citadel-load spreading its sockets over all of them (games
# created through the first node's lobby), then each node's CPU time
# and peak RSS, and the NATS server's CPU time during the run.
#
#   crates/load/tools/bench_cluster.sh MODE SECONDS GAMES [more citadel-load flags]
#   crates/load/tools/bench_cluster.sh 1 40 300        # one node, Postgres, no NATS
#   crates/load/tools/bench_cluster.sh 1nats 40 300    # one node in cluster mode
#   crates/load/tools/bench_cluster.sh 3 40 300        # three nodes, Postgres + NATS
#
# MODE: 1 (a single node on Postgres, not in cluster mode), 1nats (a
# single node with --nats-url: cluster mode, nothing to forward) or a
# number of nodes N >= 2 (cluster mode). Postgres is 127.0.0.1:5432
# (database `bench`, dropped and made anew), NATS is $NATS_URL (default
# nats://127.0.0.1:4222). Load: GAMES x (4 players + 2 spectators) at
# 1 command/s per game. Environment: BENCH_DIR (logs, default
# /tmp/citadel-bench-cluster), RUST_LOG (default warn), WORKERS (Tokio
# worker threads per node).
#
# Build first: cargo build --release -p citadel -p citadel-load
set -euo pipefail
cd "$(dirname "$0")/../../.."
if [ $# -lt 3 ]; then
    sed -n 8,11p "$0" >&2
    exit 2
fi
mode=$1 seconds=$2 games=$3
shift 3
dir=${BENCH_DIR:-/tmp/citadel-bench-cluster}
nats=${NATS_URL:-nats://127.0.0.1:4222}
case "$mode" in
    1) nodes=1 cluster=() ;;
    1nats) nodes=1 cluster=(--nats-url "$nats") ;;
    *[!0-9]* | '' | 0) echo "MODE is 1, 1nats or a number of nodes" >&2; exit 2 ;;
    *) nodes=$mode cluster=(--nats-url "$nats") ;;
esac
mkdir -p "$dir"
psql -q -h 127.0.0.1 -U postgres -d test -c "DROP DATABASE IF EXISTS bench" -c "CREATE DATABASE bench" >/dev/null
db="postgres://postgres@127.0.0.1:5432/bench"

# utime + stime of a process, in seconds.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.1f", ($14 + $15) / hz }' "/proc/$1/stat"; }

# A run right after a build shares the disk with its write-back.
sync
sleep 2

pids=() urls=()
stop_all() { for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done; }
trap stop_all EXIT
for i in $(seq "$nodes"); do
    addr=127.0.0.1:$((18090 + i))
    env ${WORKERS:+TOKIO_WORKER_THREADS=$WORKERS} RUST_LOG="${RUST_LOG:-warn}" \
        target/release/citadel --addr "$addr" --database-url "$db" --node-id "bench-$i" \
        "${cluster[@]}" >"$dir/node-$i.log" 2>&1 &
    pids+=($!)
    urls+=("http://$addr")
    for _ in $(seq 100); do
        curl -sf "http://$addr/healthz" >/dev/null && break
        sleep 0.1
    done
    # One at a time: a node's id check on NATS is per start.
done

# The NATS server's CPU during the run (if it runs here and we may read it).
nats_pid=$(pgrep -x nats-server | head -n 1 || true)
nats_before=""
if [ -n "$nats_pid" ] && [ "$mode" != 1 ]; then nats_before=$(cpu_s "$nats_pid"); fi

status=0
url_list=$(IFS=,; echo "${urls[*]}")
/usr/bin/time -f "load_cpu_s=%U+%S" target/release/citadel-load --url "$url_list" \
    --games "$games" --players-per-game 4 --spectators-per-game 2 --rate 1 \
    --duration "$seconds" "$@" || status=$?
for i in $(seq "$nodes"); do
    # Games it runs now (all of them on the lobby's node, unless one moved)
    # and the messages it forwarded over NATS.
    m=$(curl -sf "${urls[$((i - 1))]}/metrics" | awk '/^citadel_owned_games |^citadel_forwarded_messages_total / { printf " %s=%s", $1, $2 }' || true)
    echo "node_$i cpu_s=$(cpu_s "${pids[$((i - 1))]}")$m"
done
if [ -n "$nats_before" ]; then
    echo "nats_cpu_s=$(awk -v a="$nats_before" -v b="$(cpu_s "$nats_pid")" 'BEGIN { printf "%.1f", b - a }')"
fi
stop_all
for p in "${pids[@]}"; do wait "$p" || true; done
trap - EXIT
exit $status
