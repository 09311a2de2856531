import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Container } from '../src/container.js';
import { hashPassword } from '../src/core/auth/passwords.js';
import { chunks, documents, knowledgeBases, roles } from '../src/core/db/schema/index.js';
import { createLocalEmbedder } from '../src/core/llm/local-embedder.js';
import type { DepartmentRow } from '../src/modules/departments/departments.repository.js';
import { keywordIndexEntry } from '../src/modules/rag/text-analysis.js';
import type { UserRow } from '../src/modules/users/users.repository.js';

const unique = () => randomBytes(4).toString('hex');

export const TEST_PASSWORD = 'correct-horse-1';
let cachedHash: Promise<string> | null = null;
/** argon2 is slow on purpose; factories share one hash of TEST_PASSWORD. */
const testPasswordHash = () => {
  cachedHash ??= hashPassword(TEST_PASSWORD);
  return cachedHash;
};

export async function createDepartment(
  container: Container,
  values: Partial<{
    name: string;
    slug: string;
    archivedAt: Date | null;
    settings: Record<string, unknown>;
  }> = {},
): Promise<DepartmentRow> {
  const suffix = unique();
  return container.repositories.departments.insert({
    name: values.name ?? `Department ${suffix}`,
    slug: values.slug ?? `dept-${suffix}`,
    ...values,
  });
}

export interface TestUser {
  user: UserRow;
  token: string;
  password: string;
  /** `Authorization` header for `inject`. */
  headers: { authorization: string };
}

export interface UserOverrides {
  role?: string;
  departmentId?: string;
  email?: string;
  name?: string;
  phone?: string | null;
  isActive?: boolean;
  extraPermissions?: string[];
  revokedPermissions?: string[];
  extraDepartmentIds?: string[];
  revokedDepartmentIds?: string[];
}

/** A user of a system role (default employee) in a new department unless one is given, with a valid token. */
export async function createUser(container: Container, overrides: UserOverrides = {}): Promise<TestUser> {
  const roleSlug = overrides.role ?? 'employee';
  const [role] = await container.db.select().from(roles).where(eq(roles.slug, roleSlug)).limit(1);
  if (!role) throw new Error(`no role ${roleSlug}`);
  const departmentId = overrides.departmentId ?? (await createDepartment(container)).id;
  const user = await container.repositories.users.insertWithProfile({
    email: overrides.email ?? `user-${unique()}@example.test`,
    name: overrides.name ?? `User ${unique()}`,
    passwordHash: await testPasswordHash(),
    role: role.slug,
    roleId: role.id,
    departmentId,
    phone: overrides.phone ?? null,
    isActive: overrides.isActive ?? true,
    extraPermissions: overrides.extraPermissions ?? [],
    revokedPermissions: overrides.revokedPermissions ?? [],
    extraDepartmentIds: overrides.extraDepartmentIds ?? [],
    revokedDepartmentIds: overrides.revokedDepartmentIds ?? [],
  });
  const token = container.tokens.sign(user.id, user.tokenVersion);
  return { user, token, password: TEST_PASSWORD, headers: { authorization: `Bearer ${token}` } };
}

export interface KnowledgeFixture {
  knowledgeBase: typeof knowledgeBases.$inferSelect;
  documents: Array<{ document: typeof documents.$inferSelect; chunks: Array<typeof chunks.$inferSelect> }>;
}

/**
 * A knowledge base with ready documents and chunks, written directly (no
 * ingestion worker) and embedded with the local embedder, which the fake LLM
 * server also uses, so the vectors match in both LLM modes.
 */
export async function createKnowledgeFixture(
  container: Container,
  values: {
    departmentId: string;
    name?: string;
    ragWeights?: { vector: number; keyword: number };
    documents: Array<{ title: string; chunks: string[] }>;
  },
): Promise<KnowledgeFixture> {
  const embedder = createLocalEmbedder(container.config.embeddingDimensions);
  const [knowledgeBase] = await container.db
    .insert(knowledgeBases)
    .values({
      name: values.name ?? `Knowledge ${unique()}`,
      departmentId: values.departmentId,
      ...(values.ragWeights ? { ragWeights: values.ragWeights } : {}),
    })
    .returning();
  if (!knowledgeBase) throw new Error('knowledge base not inserted');
  const created: KnowledgeFixture['documents'] = [];
  for (const doc of values.documents) {
    const [document] = await container.db
      .insert(documents)
      .values({
        knowledgeBaseId: knowledgeBase.id,
        departmentId: values.departmentId,
        title: doc.title,
        type: 'txt',
        status: 'ready',
      })
      .returning();
    if (!document) throw new Error('document not inserted');
    const rows = doc.chunks.length
      ? await container.db
          .insert(chunks)
          .values(
            doc.chunks.map((content, chunkIndex) => ({
              documentId: document.id,
              knowledgeBaseId: knowledgeBase.id,
              chunkIndex,
              content,
              tokenCount: content.split(/\s+/).length,
              embedding: embedder.embedOne(content),
              // The keyword leg's terms, as ingestion writes them.
              ...keywordIndexEntry(content),
            })),
          )
          .returning()
      : [];
    created.push({ document, chunks: rows });
  }
  return { knowledgeBase, documents: created };
}

/** A custom (non-system) role; pass `permissions` to give it any. */
export async function createRole(
  container: Container,
  values: Partial<{
    name: string;
    slug: string;
    permissions: string[];
    departmentIds: string[];
    allDepartments: boolean;
  }> = {},
) {
  const suffix = unique();
  const [role] = await container.db
    .insert(roles)
    .values({
      name: values.name ?? `Role ${suffix}`,
      slug: values.slug ?? `role-${suffix}`,
      permissions: values.permissions ?? [],
      departmentIds: values.departmentIds ?? [],
      allDepartments: values.allDepartments ?? false,
    })
    .returning();
  return role!;
}

/** An empty knowledge base in `departmentId`, with the default rag weights. */
export async function createKnowledgeBase(
  container: Container,
  values: { departmentId: string; name?: string; description?: string | null },
) {
  return container.knowledge.repositories.bases.insert({
    name: values.name ?? `Knowledge ${unique()}`,
    departmentId: values.departmentId,
    description: values.description ?? null,
  });
}

/** A document row written directly (no file, no ingestion): for endpoint tests that need one to exist. */
export async function createDocumentRow(
  container: Container,
  values: { knowledgeBaseId: string; departmentId: string; title?: string; status?: string; type?: string },
) {
  return container.knowledge.repositories.documents.insert({
    knowledgeBaseId: values.knowledgeBaseId,
    departmentId: values.departmentId,
    title: values.title ?? `Document ${unique()}`,
    type: values.type ?? 'txt',
    status: values.status ?? 'ready',
    metadata: { ingestion: { run: 1 } },
  });
}

/** A namespace in `departmentId`. */
export async function createNamespace(
  container: Container,
  values: {
    departmentId: string;
    name?: string;
    systemPrompt?: string | null;
    config?: Record<string, unknown>;
  },
) {
  return container.namespaces.repositories.namespaces.insert({
    name: values.name ?? `Namespace ${unique()}`,
    departmentId: values.departmentId,
    systemPrompt: values.systemPrompt ?? null,
    config: values.config ?? {},
  });
}
