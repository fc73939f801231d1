# Mneme in a container: one static-ish binary, SQLite on a volume, running as a non-root user.
#   docker build -t mneme .
#   docker run -d --name mneme -v mneme-data:/data -e MNEME_API_KEY=sk-… mneme
# The config is /data/config.yaml (see README); data lives beside it in /data/mneme.data.

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
# The web chat (channels.web); set host: 0.0.0.0 and an auth_token to reach it from outside.
EXPOSE 10961
ENTRYPOINT ["mneme"]
CMD ["start"]
