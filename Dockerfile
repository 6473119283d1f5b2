# syntax=docker/dockerfile:1
# FinFlow: one image for the web server, the worker and the one-shot migrate step.

FROM node:22-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci's postinstall applies the dependency patches (docs/decisions/020-route-tree-once.md).
COPY patches ./patches
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# The Remix build, and the web server and worker compiled to build/server.js and build/worker.js.
RUN npm run build && npm prune --omit=dev

FROM node:22-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
RUN groupadd --system finflow && useradd --system --gid finflow --home /app finflow \
    && mkdir -p /data && chown finflow:finflow /data
COPY --from=build --chown=finflow:finflow /app/node_modules ./node_modules
COPY --from=build --chown=finflow:finflow /app/build ./build
COPY --from=build --chown=finflow:finflow /app/public ./public
COPY --chown=finflow:finflow package.json server.ts ./
COPY --chown=finflow:finflow app ./app
COPY --chown=finflow:finflow db ./db
COPY --chown=finflow:finflow worker ./worker
COPY --chown=finflow:finflow emails ./emails
COPY --chown=finflow:finflow scripts ./scripts
USER finflow
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The web server by default; compose runs the worker and migrate step from the same image.
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=16", "--no-allocation-site-pretenuring", "build/server.js"]
