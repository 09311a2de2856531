/**
 * The synthetic company both pipeline benchmarks seed (bench/pipeline.ts,
 * bench/model-latency.ts): a seeded random source, a made-up vocabulary of
 * topics, and the intents and people of a department.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import type { Container } from '../src/container.js';
import { rowsOf } from '../src/core/db/client.js';
import { intentTrust, namespaces, roles } from '../src/core/db/schema/index.js';

/** mulberry32: a seeded source, so every run sees the same texts. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';

/** Words of `intents` topics (40 each) and 600 general ones; sentences and questions about a topic. */
export function vocabulary(random: () => number, intents: number) {
  const used = new Set<string>();
  const word = () => {
    for (;;) {
      let w = '';
      const syllables = 2 + Math.floor(random() * 2);
      for (let i = 0; i < syllables; i++) {
        w += CONSONANTS[Math.floor(random() * CONSONANTS.length)]!;
        w += VOWELS[Math.floor(random() * VOWELS.length)]!;
      }
      if (!used.has(w)) {
        used.add(w);
        return w;
      }
    }
  };
  const topics = Array.from({ length: intents }, () => Array.from({ length: 40 }, word));
  const general = Array.from({ length: 600 }, word);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  // General words of skewed frequency, as in real text.
  const generalWord = () => general[Math.floor(general.length * random() ** 2)]!;
  const sentence = (topic: number) =>
    Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? pick(topics[topic]!) : generalWord())).join(' ');
  const question = (topic: number) =>
    `how do i ${pick(topics[topic]!)} the ${pick(topics[topic]!)} ${pick(topics[topic]!)} ${generalWord()}?`;
  return { sentence, question, pick };
}

export type Vocabulary = ReturnType<typeof vocabulary>;

/**
 * The bench's department and its namespace (persona with two boundaries),
 * set as the department's default, so channel messages route to it.
 */
export async function seedDepartment(container: Container, suffix: string) {
  const department = await container.repositories.departments.insert({
    name: `Bench ${suffix}`,
    slug: `bench-${suffix}`,
  });
  const [namespace] = await container.db
    .insert(namespaces)
    .values({
      name: `Bench ${suffix}`,
      departmentId: department.id,
      systemPrompt: 'You answer questions about the company.',
      persona: { boundaries: ['legal advice', 'salary negotiation'] },
    })
    .returning();
  await container.repositories.departments.update(department.id, {
    settings: { defaultNamespaceId: namespace!.id },
  });
  return { department, namespace: namespace! };
}

/**
 * Intents through the service (it embeds the examples and creates the trust
 * records; the first half autonomous), an approver, and `senderCount`
 * employees of the department with their profiles. Answers the senders' ids.
 */
export async function seedIntentsAndPeople(
  container: Container,
  input: {
    departmentId: string;
    namespaceId: string;
    intents: number;
    examplesPerIntent: number;
    words: Vocabulary;
    suffix: string;
    senderCount: number;
  },
): Promise<string[]> {
  const { db } = container;
  const examples: Array<{ intentName: string; exampleText: string }> = [];
  for (let t = 0; t < input.intents; t++) {
    const texts = new Set<string>();
    while (texts.size < input.examplesPerIntent) texts.add(input.words.question(t));
    for (const exampleText of texts) examples.push({ intentName: `topic-${t}`, exampleText });
  }
  await container.intents.service.storeExamples(input.namespaceId, examples);
  await db
    .update(intentTrust)
    .set({ isAutonomous: true, successfulCount: 5 })
    .where(
      inArray(
        intentTrust.intentName,
        Array.from({ length: input.intents / 2 }, (_, t) => `topic-${t}`),
      ),
    );
  const [deptHead] = await db.select().from(roles).where(eq(roles.slug, 'dept_head')).limit(1);
  const [employee] = await db.select().from(roles).where(eq(roles.slug, 'employee')).limit(1);
  await container.repositories.users.insertWithProfile({
    email: `approver-${input.suffix}@example.test`,
    name: 'Bench Approver',
    passwordHash: null,
    role: deptHead!.slug,
    roleId: deptHead!.id,
    departmentId: input.departmentId,
  });
  const senderIds = rowsOf<{ id: string }>(
    await db.execute(sql`INSERT INTO users (email, name, role, role_id, department_id)
      SELECT 'sender-' || g || '-' || ${input.suffix} || '@example.test', 'Sender ' || g, ${employee!.slug}, ${employee!.id}, ${input.departmentId}
      FROM generate_series(1, ${input.senderCount}) g RETURNING id`),
  ).map((r) => r.id);
  await db.execute(
    sql`INSERT INTO employee_profiles (user_id) SELECT unnest(${`{${senderIds.join(',')}}`}::uuid[])`,
  );
  return senderIds;
}
