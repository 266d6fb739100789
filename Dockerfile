# syntax=docker/dockerfile:1
# Multi-stage build: compile in a full toolchain image, run as a non-root user on Node 22 slim.

# ---- build: dependencies (native addons compiled here) and TypeScript -> dist/
FROM node:22-slim AS build
WORKDIR /app
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts/build.mjs scripts/progress.mjs ./scripts/
COPY src ./src
COPY web ./web
RUN npm run build && npm prune --omit=dev

# ---- runtime
FROM node:22-slim AS runtime
# MALLOC_*: glibc keeps memory libvips' threads freed (an arena per thread, large blocks in
# the heap); these settings keep the server smaller while print files render. glibc reads
# them only when a process starts, so they are set here, for production (docs/operations.md,
# "Memory on Linux").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    PHOTOS_DIR=/photos
# Labels and watermarks use the font shipped in node_modules (Noto Sans JP); fontconfig and
# DejaVu give Pango a fallback for scripts that font lacks (e.g. Hangul, Cyrillic).
RUN apt-get update \
 && apt-get install -y --no-install-recommends fontconfig fonts-dejavu-core tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data /photos && chown node:node /data /photos
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
USER node
VOLUME ["/data", "/photos"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server.js"]
