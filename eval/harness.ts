/**
 * What the evaluation scripts share: a throw-away service (embedded database in a temporary
 * DATA_DIR, workers running) with one department and one knowledge base, documents uploaded
 * through the real ingestion, and a wait until every one of them is ingested.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { type Container, createContainer } from '../src/container.js';
import { loadConfig } from '../src/core/config/config.js';
import { openPglite, rowsOf } from '../src/core/db/client.js';
import { startWorkers } from '../src/workers/index.js';

export interface EvalService {
  container: Container;
  departmentId: string;
  knowledgeBaseId: string;
}

/** Boots the service on a fresh embedded database with a department `slug` and a knowledge base. */
export async function startEvalService(slug: string, baseName: string): Promise<EvalService> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `aos-${slug}-`));
  const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'e'.repeat(48), LOG_LEVEL: 'warn' });
  const container = await createContainer(config, {
    logger: pino({ level: 'warn' }),
    database: await openPglite({}),
  });
  startWorkers(container);
  const department = await container.repositories.departments.insert({ name: 'Eval', slug });
  const base = await container.knowledge.repositories.bases.insert({
    name: baseName,
    departmentId: department.id,
  });
  return { container, departmentId: department.id, knowledgeBaseId: base.id };
}

/** Uploads one file into the service's knowledge base as the system; answers the document's id. */
export async function uploadDocument(
  service: EvalService,
  document: { title: string; fileName: string; bytes: Buffer },
): Promise<string> {
  const { container } = service;
  const { tempPath } = await container.knowledge.files.receive(Readable.from([document.bytes]));
  const uploaded = await container.knowledge.documents.upload(container.system, {
    knowledgeBaseId: service.knowledgeBaseId,
    title: document.title,
    file: { tempPath, fileName: document.fileName, size: document.bytes.length },
  });
  return uploaded.id;
}

/** Waits until no document of the knowledge base is pending or processing (ready or failed). */
export async function ingested(service: EvalService): Promise<void> {
  for (;;) {
    const [row] = rowsOf<{ waiting: number }>(
      await service.container.db.execute(sql`SELECT count(*)::int AS waiting FROM documents
        WHERE knowledge_base_id = ${service.knowledgeBaseId} AND status NOT IN ('ready', 'failed')`),
    );
    if (!row || row.waiting === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
