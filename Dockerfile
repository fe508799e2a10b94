# Repair Minder's server as a container (docs/operating.md). Two stages: the toolchain builds a
# release binary with the Swift runtime linked in statically; the image that runs it has no
# compiler, runs as an unprivileged user and checks its own health.
#
#   docker build -t repairminder .
#   docker run -p 8080:8080 -v repairminder:/var/lib/repairminder \
#     -e REPAIRMINDER_PUBLIC_URL=https://auth.example.com ... repairminder

FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY Benchmarks ./Benchmarks
RUN swift build -c release --product repairminder --static-swift-stdlib \
    && mkdir /out \
    && cp .build/release/repairminder /out/ \
    && cp -R .build/release/*.resources /out/

FROM debian:bookworm-slim
# The binary has the Swift runtime inside; it needs the C and C++ libraries, libcurl (Foundation's
# networking links it dynamically), certificates for TLS to the mail and database servers, and
# curl for the health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl libcurl4 libstdc++6 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /var/lib/repairminder --shell /usr/sbin/nologin repairminder \
    && mkdir -p /var/lib/repairminder && chown repairminder:repairminder /var/lib/repairminder && chmod 0700 /var/lib/repairminder
COPY --from=build /out/ /opt/repairminder/
USER repairminder
WORKDIR /var/lib/repairminder
ENV REPAIRMINDER_HOST=0.0.0.0 \
    REPAIRMINDER_PORT=8080 \
    REPAIRMINDER_DATA_DIR=/var/lib/repairminder \
    REPAIRMINDER_LOG_FORMAT=json
EXPOSE 8080
VOLUME /var/lib/repairminder
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD curl -fsS "http://127.0.0.1:${REPAIRMINDER_PORT}/api/health" > /dev/null || exit 1
# SIGTERM (docker stop) finishes requests in flight and exits 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/repairminder/repairminder"]
CMD ["serve"]
