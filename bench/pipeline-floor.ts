/**
 * The floor of `bench/pipeline.ts`: what the service's storage, queue and
 * bus allow a message when nothing else runs. The same rows a message
 * writes (conversation, message, task, four tool calls, run with five hits,
 * approval, notification, profile) in the fewest statements (six, each a
 * chain of data-modifying CTEs), the same two jobs and eight events, on the
 * same drivers, with none of the pipeline's work: no sender lookup, no
 * ordering, no retrieval, classification, model or decision. The messages
 * per second it reaches is what the pipeline's own work shares with the
 * storage; the queue's no-op rate beside it is the ceiling of the jobs alone.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Bus } from '../src/core/bus/bus.js';
import { type Database, rowsOf } from '../src/core/db/client.js';
import type { QueueDriver } from '../src/core/queue/queue.js';

export interface FloorInput {
  db: Database;
  bus: Bus;
  /** A scratch queue (the service's own queues have their workers). */
  queue: QueueDriver;
  concurrency: number;
  inFlight: number;
  messages: number;
  userIds: string[];
  departmentId: string;
  namespaceId: string;
}

const CHANNEL = 'bench-floor';
const STEP_OUTPUT = { chunks: 5, text: 'x'.repeat(400) };

/** Runs the floor; answers messages per second, from the first message to the last completion heard on the bus. */
export async function floor(input: FloorInput): Promise<number> {
  const { db, bus, queue } = input;
  const publish = (event: string, taskId: string, extra: Record<string, unknown> = {}) =>
    bus.publish(CHANNEL, { event, payload: { taskId, ...extra } });

  let completed = 0;
  let allDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const unsubscribe = await bus.subscribe(CHANNEL, (message) => {
    if ((message as { event: string }).event === 'completed' && ++completed === input.messages) allDone();
  });

  queue.process<{ taskId: string }>(
    'agent-tasks',
    async (job) => {
      const { taskId } = job.data;
      const [task] = rowsOf<{ id: string; conversation_id: string; message_id: string; content: string }>(
        await db.execute(sql`UPDATE agent_tasks SET status = 'running', started_at = now()
          WHERE id = ${taskId}::uuid
          RETURNING id, conversation_id, message_id, (SELECT content FROM messages WHERE id = message_id) AS content`),
      );
      await publish('started', taskId);
      const input_ = JSON.stringify({ question: task!.content });
      const output = JSON.stringify(STEP_OUTPUT);
      const first = rowsOf<{ id: string }>(
        await db.execute(sql`INSERT INTO agent_tool_calls (task_id, step_name, status, input_data, output_data)
          VALUES (${taskId}::uuid, 'inject_profile', 'done', ${input_}::jsonb, ${output}::jsonb),
            (${taskId}::uuid, 'rag_search', 'done', ${input_}::jsonb, ${output}::jsonb)
          RETURNING id`),
      );
      for (const call of first) await publish('tool-call', taskId, call);
      const hits = JSON.stringify([1, 2, 3, 4, 5].map((rank) => ({ rank, score: 1 / rank })));
      await db.execute(sql`WITH run AS (
          INSERT INTO agent_runs (trace_id, task_id, provider, model)
          VALUES (${`floor-${taskId}`}, ${taskId}::uuid, 'offline', 'floor') RETURNING id, task_id
        ),
        hits AS (
          INSERT INTO retrieval_hits (run_id, rank, score)
          SELECT run.id, (h ->> 'rank')::integer, (h ->> 'score')::float8 FROM run, jsonb_array_elements(${hits}::jsonb) h
        )
        UPDATE agent_tasks SET trace_id = ${`floor-${taskId}`} WHERE id = (SELECT task_id FROM run)`);
      const [decided] = rowsOf<{ calls: Array<{ id: string }>; notification: string }>(
        await db.execute(sql`WITH calls AS (
            INSERT INTO agent_tool_calls (task_id, step_name, status, input_data, output_data)
            VALUES (${taskId}::uuid, 'generate', 'done', ${input_}::jsonb, ${output}::jsonb),
              (${taskId}::uuid, 'confidence_check', 'done', ${input_}::jsonb, ${output}::jsonb)
            RETURNING id
          ),
          approval AS (
            INSERT INTO approvals (task_id, conversation_id, message_id, department_id, namespace_id, original_content,
              sources, context)
            VALUES (${taskId}::uuid, ${task!.conversation_id}::uuid, ${task!.message_id}::uuid,
              ${input.departmentId}::uuid, ${input.namespaceId}::uuid, ${STEP_OUTPUT.text}, ${output}::jsonb,
              ${input_}::jsonb)
            RETURNING id
          ),
          notified AS (
            INSERT INTO notifications (user_id, type, title, entity_type, entity_id)
            SELECT ${input.userIds[0]}::uuid, 'approval_pending', 'Reply awaiting approval', 'approval', id::text
            FROM approval RETURNING id
          ),
          waiting AS (
            UPDATE conversations SET status = 'awaiting_approval' WHERE id = ${task!.conversation_id}::uuid
          ),
          finished AS (
            UPDATE agent_tasks SET status = 'done', finished_at = now(), output = ${output}::jsonb
            WHERE id = ${taskId}::uuid
          )
          SELECT (SELECT json_agg(calls) FROM calls) AS calls, (SELECT id FROM notified) AS notification`),
      );
      for (const call of decided!.calls) await publish('tool-call', taskId, call);
      await publish('notification', taskId, { id: decided!.notification });
      await publish('completed', taskId);
      await queue.add('memory-extraction', 'floor', { taskId }, { jobId: `memory-${taskId}` });
      return null;
    },
    { concurrency: input.concurrency },
  );
  queue.process<{ taskId: string }>(
    'memory-extraction',
    async (job) => {
      await db.execute(sql`UPDATE employee_profiles SET summary = ${`after ${job.data.taskId}`}
        WHERE user_id = (SELECT user_id FROM conversations c JOIN agent_tasks t ON t.conversation_id = c.id
          WHERE t.id = ${job.data.taskId}::uuid)`);
      return null;
    },
    { concurrency: 1 },
  );

  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: input.inFlight }, async () => {
      while (next < input.messages) {
        const i = next++;
        const userId = input.userIds[i % input.userIds.length]!;
        const taskId = randomUUID();
        await db.execute(sql`WITH conversation AS (
            INSERT INTO conversations (channel, channel_user_id, user_id, department_id, namespace_id, last_message_at)
            VALUES ('web', ${`floor-${taskId}`}, ${userId}::uuid, ${input.departmentId}::uuid,
              ${input.namespaceId}::uuid, now())
            RETURNING id
          ),
          message AS (
            INSERT INTO messages (conversation_id, channel, direction, content)
            SELECT id, 'web', 'inbound', ${`Floor question ${i}`} FROM conversation RETURNING id, conversation_id
          )
          INSERT INTO agent_tasks (id, job_id, namespace_id, department_id, conversation_id, message_id)
          SELECT ${taskId}::uuid, ${`agent-task-${taskId}`}, ${input.namespaceId}::uuid, ${input.departmentId}::uuid,
            conversation_id, id
          FROM message`);
        await publish('created', taskId);
        await queue.add('agent-tasks', 'floor', { taskId }, { jobId: `agent-task-${taskId}` });
      }
    }),
  );
  await done;
  const rate = input.messages / ((performance.now() - started) / 1000);
  await unsubscribe();
  await queue.close();
  return rate;
}
