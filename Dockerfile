# syntax=docker/dockerfile:1
# Build stage: every dependency (compilers for better-sqlite3), `npm run build` into dist/, then
# only production dependencies are kept and trimmed (docs/operations.md, "Building and the image").
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm ci runs the package's `prepare` script, which builds only where sources are (not yet here).
COPY scripts/prepare.js ./scripts/prepare.js
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && sh scripts/trim-node-modules.sh node_modules

# Runtime stage: the build, production node_modules, migrations and the demo's sample data; no
# sources, no compiler. The files belong to root and are read-only to the service's user, so the
# root filesystem can be mounted read-only: the service writes under DATA_DIR only.
# scripts/check-production-tree.ts reads the COPY lines below to lay out the same tree in CI.
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
RUN groupadd --system wms && useradd --system --gid wms --home-dir /app wms \
 && mkdir -p /data && chown wms:wms /data
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY drizzle ./drizzle
COPY fixtures ./fixtures
USER wms
EXPOSE 8080
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["node", "bin/wms-sync.js"]
CMD ["serve"]
