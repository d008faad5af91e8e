# syntax=docker/dockerfile:1
# memval: one image for every role (`memval serve extractor|investigator|scorer|ingest`) and
# for the CLI. compose.yaml builds it; by hand: `docker build -t memval .`

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# The registry and target caches survive between builds (BuildKit); the binary is copied
# out of the cache mount so the next stage can take it.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p memval \
 && install -m 0755 target/release/memval /usr/local/bin/memval

FROM debian:bookworm-slim
# git: the investigator reads history with the git binary. ca-certificates: TLS to NATS or
# a collector. A checkout mounted from the host belongs to another uid, which git refuses
# unless it is marked safe. /var/lib/memval is the scorer's store; a named volume mounted
# there starts with this ownership.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && git config --system --add safe.directory '*' \
 && useradd --system --uid 10001 --home-dir /var/lib/memval --shell /usr/sbin/nologin memval \
 && mkdir -p /var/lib/memval \
 && chown memval:memval /var/lib/memval
COPY --from=build /usr/local/bin/memval /usr/local/bin/memval
USER memval
WORKDIR /var/lib/memval
ENTRYPOINT ["memval"]
CMD ["--help"]
