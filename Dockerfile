# syntax=docker/dockerfile:1
# The Citadel game server: `docker compose up` (see docker-compose.yml) or
#   docker build -t citadel . && docker run -p 8080:8080 citadel
# (without compose the games are kept in a SQLite file on /app/data).

# ---- build
FROM rust:1.95-slim-bookworm AS builder
WORKDIR /src
# Everything the release build reads: the workspace, its crates (with the
# game data they embed), the SQL migrations the store embeds and the
# browser client the server embeds.
COPY Cargo.toml Cargo.lock rustfmt.toml ./
COPY crates ./crates
COPY migrations ./migrations
# The browser client, built into the binary (crates/server/src/web_assets.rs).
COPY web-client ./web-client
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p citadel \
    && cp target/release/citadel /usr/local/bin/citadel

# ---- run
FROM debian:bookworm-slim
# curl: the health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends curl ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin citadel \
    && mkdir -p /app/data \
    && chown citadel:citadel /app/data
WORKDIR /app
COPY --from=builder /usr/local/bin/citadel /usr/local/bin/citadel
COPY web-client /app/web-client
ENV CITADEL_ADDR=0.0.0.0:8080 \
    CITADEL_WEB_DIR=/app/web-client \
    CITADEL_DATABASE_URL=sqlite:///app/data/citadel.sqlite \
    CITADEL_LOG_FORMAT=json
VOLUME /app/data
USER citadel
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
# SIGTERM (docker stop) shuts the server down cleanly.
ENTRYPOINT ["/usr/local/bin/citadel"]
