# syntax=docker/dockerfile:1
# Build stage: compiles better-sqlite3 and installs production dependencies only.
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY drizzle ./drizzle
COPY fixtures ./fixtures

# Runtime stage: no compilers, a non-root user, state under /data.
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
RUN groupadd --system wms && useradd --system --gid wms --home-dir /app wms \
 && mkdir -p /data && chown wms:wms /data
COPY --from=build --chown=wms:wms /app /app
USER wms
EXPOSE 8080
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/wms-sync.js"]
CMD ["serve"]
