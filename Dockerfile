# Mneme in a container: one static-ish binary, SQLite on a volume, running as a non-root user.
#   docker build -t mneme .
#   docker run --rm -v mneme-data:/data -e MNEME_API_KEY=sk-… -e MNEME_WEB_AUTH_TOKEN=… mneme init --model gpt-4o-mini --web-host 0.0.0.0
#   docker run -d --name mneme -p 127.0.0.1:10961:10961 -v mneme-data:/data -e MNEME_API_KEY=sk-… -e MNEME_WEB_AUTH_TOKEN=… mneme
# The config is /data/config.yaml (see README); data lives beside it in /data/mneme.data.
# In a container the web chat must listen on 0.0.0.0 to be reachable through -p, and then it
# refuses to start without an auth token: pass it in MNEME_WEB_AUTH_TOKEN, never in the image.

FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY migrations ./migrations
COPY runtime ./runtime
COPY benches ./benches
COPY config.example.yaml ./
RUN cargo build --release --locked --bin mneme

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin mneme \
    && mkdir -p /data && chown mneme:mneme /data
COPY --from=build /src/target/release/mneme /usr/local/bin/mneme
COPY config.example.yaml /usr/share/mneme/config.example.yaml
USER mneme
WORKDIR /data
VOLUME ["/data"]
ENV MNEME_CONFIG=/data/config.yaml
# The web chat (channels.web): host 0.0.0.0 (mneme init --web-host 0.0.0.0) and a token.
EXPOSE 10961
# /healthz answers 200 when the database and every enabled channel are up. The image has no
# curl: `mneme healthcheck` asks it on loopback with the same config.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 CMD ["mneme", "healthcheck"]
ENTRYPOINT ["mneme"]
CMD ["start"]
