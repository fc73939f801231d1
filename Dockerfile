# Mneme in a container: one binary, SQLite on a volume, running as a non-root user.
#   docker build -t mneme .
# then see README.md, "Docker", for `mneme init` on the volume and `docker run`.
# The config is /data/config.yaml; data lives beside it in /data/mneme.data.
#
# Three build arguments exist so that the repository's Docker test (tests/docker.rs) can build
# this same file on a machine with no container registry; a normal build leaves them alone:
#   BASE_IMAGE    the runtime stage's base (a Debian bookworm image made with debootstrap)
#   RUST_IMAGE    the compiler stage's base
#   BINARY_STAGE  where the binary comes from: the `build` stage below, or an image holding a
#                 mneme built elsewhere at /src/target/release/mneme (BuildKit then skips `build`)
ARG BASE_IMAGE=debian:bookworm-slim
ARG RUST_IMAGE=rust:1-bookworm
ARG BINARY_STAGE=build

FROM ${RUST_IMAGE} AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock build.rs ./
COPY .cargo ./.cargo
COPY build ./build
COPY src ./src
COPY migrations ./migrations
COPY runtime ./runtime
COPY benches ./benches
COPY config.example.yaml ./
RUN cargo build --release --locked --bin mneme

FROM ${BINARY_STAGE} AS binary

FROM ${BASE_IMAGE}
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin mneme \
    && mkdir -p /data && chown mneme:mneme /data
COPY --from=binary /src/target/release/mneme /usr/local/bin/mneme
COPY config.example.yaml /usr/share/mneme/config.example.yaml
USER mneme
WORKDIR /data
VOLUME ["/data"]
ENV MNEME_CONFIG=/data/config.yaml
# The web chat (channels.web): host 0.0.0.0 (mneme init --web-host 0.0.0.0) and a token.
EXPOSE 10961
# Healthy when the database answers and every enabled channel is connected. The image has no
# curl: `mneme healthcheck` asks /healthz on loopback, or, with the web chat off, reads the
# heartbeat the daemon keeps in its data_dir.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["mneme", "healthcheck"]
# `mneme start` is PID 1: it handles SIGTERM itself (docker stop) and exits within 10 s.
STOPSIGNAL SIGTERM
ENTRYPOINT ["mneme"]
CMD ["start"]
