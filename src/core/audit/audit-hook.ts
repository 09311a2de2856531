import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditText, redactSecrets } from './redact.js';

/** One audit entry as the hook (or a service, for domain events) records it. */
export interface AuditEntryInput {
  userId: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  changes: unknown;
  ipAddress: string | null;
  userAgent: string | null;
}

/** Where entries go; the audit module's service implements it. */
export interface AuditWriter {
  record(entry: AuditEntryInput): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * What the entry's `changes` should say instead of the body: upload routes
     * set it with `describeForm` (core/http/multipart.ts), routes whose key lives in the URL set
     * the key. Redacted like a body.
     */
    auditChanges?: unknown;
  }
}

const AUDITED_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const APPROVAL_DECISION = /\/approvals\/:[^/]+\/(approve|reject|escalate)$/;
const MAX_USER_AGENT = 512;
const MAX_ENTITY_ID = 200;
const MAX_IP = 64;
/** A create's response is read for its `id` only when it is this small. */
const MAX_PARSED_RESPONSE = 1_000_000;

/** The action table (docs/audit.md): login, approval decisions, else create / update / delete by method. */
export function actionFor(method: string, routeUrl: string): string {
  if (method === 'POST') {
    if (routeUrl.endsWith('/auth/login')) return 'login';
    const decision = APPROVAL_DECISION.exec(routeUrl);
    return decision?.[1] ?? 'create';
  }
  return method === 'DELETE' ? 'delete' : 'update';
}

/** The first path segment after the API prefix: `/api/v1/users/:id/audit` → `users`. */
export function entityTypeFor(routeUrl: string, apiPrefix: string): string {
  const path = routeUrl.startsWith(apiPrefix) ? routeUrl.slice(apiPrefix.length) : routeUrl;
  return path.split('/').find((segment) => segment.length > 0 && !segment.startsWith(':')) ?? 'unknown';
}

function changesOf(request: FastifyRequest, idParam: string): unknown {
  if (request.auditChanges !== undefined) return redactSecrets(request.auditChanges);
  if (request.isMultipart()) return { multipart: true };
  if (request.body !== undefined && request.body !== null) return redactSecrets(request.body);
  // Without a body, the key of the change is in the URL (DELETE /users/:id/permissions/grant/:permission).
  const params = Object.entries((request.params ?? {}) as Record<string, unknown>).filter(
    ([name]) => name !== idParam && name !== '*',
  );
  return params.length > 0 ? redactSecrets(Object.fromEntries(params)) : null;
}

function createdIdOf(payload: unknown): string | null {
  if (typeof payload !== 'string' || payload.length > MAX_PARSED_RESPONSE || !payload.startsWith('{')) {
    return null;
  }
  try {
    const id = (JSON.parse(payload) as { id?: unknown }).id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/**
 * The audit middleware: one entry for every successful (2xx) POST,
 * PATCH, PUT and DELETE unless the route says `config.audit: false`. Runs in
 * `onSend`, so the entry is committed before the client reads the answer; a
 * failed write is logged and never fails the request (the change itself has
 * already happened). Failed requests change nothing and are not audited
 * (docs/audit.md).
 */
export function registerAuditHook(app: FastifyInstance, writer: AuditWriter, apiPrefix: string): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const config = request.routeOptions.config;
    const routeUrl = request.routeOptions.url;
    if (!routeUrl || !AUDITED_METHODS.has(request.method) || config?.audit === false) return payload;
    if (reply.statusCode < 200 || reply.statusCode >= 300) return payload;
    const audit = config?.audit || {};
    const idParam = audit.idParam ?? 'id';
    const action = audit.action ?? actionFor(request.method, routeUrl);
    const param = ((request.params ?? {}) as Record<string, unknown>)[idParam];
    let entityId = typeof param === 'string' ? param : null;
    if (!entityId && request.actor && routeUrl.startsWith(`${apiPrefix}/me`)) entityId = request.actor.userId;
    if (!entityId && action === 'create') entityId = createdIdOf(payload);
    const userAgent = request.headers['user-agent'];
    const entry: AuditEntryInput = {
      userId: request.actor?.kind === 'user' ? request.actor.userId : (request.auditUserId ?? null),
      action,
      entityType: audit.entityType ?? entityTypeFor(routeUrl, apiPrefix),
      // Every string the caller controls goes through auditText: the entry must never fail on input.
      entityId: entityId ? auditText(entityId, MAX_ENTITY_ID) : null,
      changes: changesOf(request, idParam),
      ipAddress: request.ip ? auditText(request.ip, MAX_IP) : null,
      userAgent: userAgent ? auditText(userAgent, MAX_USER_AGENT) : null,
    };
    try {
      await writer.record(entry);
    } catch (err) {
      request.log.error({ err, action: entry.action, entityType: entry.entityType }, 'audit write failed');
    }
    return payload;
  });
}
