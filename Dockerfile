# syntax=docker/dockerfile:1
# The service's image: `node dist/main.js <mode>`, mode `all` (default), `api`
# or `worker` (docs/deploy.md). Built in two stages: the first installs every
# dependency and runs `npm run build` (service and console); the second keeps
# the production dependencies and the built `dist/` only.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Install scripts stay off, as package.json's `allowScripts` keeps them off
# (the native modules come as prebuilt platform packages), and so does this
# package's own `prepare`: the build runs below, once the sources are here.
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY console ./console
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    PORT=3000 \
    METRICS_PORT=9464
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only (no `prepare`: dist/ comes built); the OCR's
# language data (@tesseract.js-data/eng and /ukr) is among them, so OCR reads
# nothing from the network.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
# The compiled service, its SQL migrations and the console (dist/console).
COPY --from=build /app/dist ./dist
# DATA_DIR holds uploads (shared by api and worker), the OCR's unpacked
# language data and, embedded, the database: owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000 9464
# One check for every mode: an api (or `all`) answers /health/live on PORT, a
# worker on METRICS_PORT; either answering 200 is a live process.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "const ports=[process.env.PORT||3000,process.env.METRICS_PORT||9464];Promise.any(ports.map((p)=>fetch('http://127.0.0.1:'+p+'/health/live',{signal:AbortSignal.timeout(4000)}).then((r)=>{if(!r.ok)throw new Error(String(r.status))}))).then(()=>process.exit(0),()=>process.exit(1))"]
ENTRYPOINT ["node", "dist/main.js"]
CMD ["all"]
