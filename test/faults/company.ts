import type { Container } from '../../src/container.js';
import { createUser } from '../factories.js';
import {
  createPipelineScene,
  makeAutonomous,
  markInteracted,
  VACATION_QUESTION,
} from '../pipeline-factories.js';

/** The company a fault run talks to: who may write, and what each message says. */
export interface FaultCompany {
  /** Channel A sender ids (E.164 digits), one per employee. */
  phones: string[];
}

/**
 * One department whose `vacation` intent is autonomous (sampling 0) and
 * whose employees have all met it, so that a message repeating the
 * knowledge's sentence is answered and sent without a human: every
 * accepted message must come back as exactly one reply. `senders`
 * employees, each with a phone number of their own.
 */
export async function seedFaultCompany(container: Container, senders: number): Promise<FaultCompany> {
  const scene = await createPipelineScene(container);
  await makeAutonomous(container, scene.namespaceId, 'vacation', 0);
  const phones: string[] = [];
  for (let i = 0; i < senders; i++) {
    const phone = `38050${String(1_000_000 + i).padStart(7, '0')}`;
    const user = await createUser(container, { departmentId: scene.departmentId, phone });
    await markInteracted(container, user.user.id, scene.namespaceId, 'vacation');
    phones.push(phone);
  }
  return { phones };
}

/**
 * The text of a sender's `n`-th message: the question the knowledge answers,
 * tagged so that its reply (the fake model quotes the question) names the
 * message it answers.
 */
export const faultMessageText = (tag: string) => `${VACATION_QUESTION} ${tag}`;

/** A message's tag: the stream it belongs to, its sender and the sender's message number. */
export interface MessageTag {
  stream: number;
  sender: number;
  n: number;
}

/** The tag of a stream's message, as it appears in the message and in its reply. */
export const messageTag = ({ stream, sender, n }: MessageTag) => `[s${stream}m${sender}x${n}]`;

/** Reads the tag back out of a reply's text; null for a reply that names none. */
export function tagOf(text: string): MessageTag | null {
  const match = /\[s(\d+)m(\d+)x(\d+)\]/.exec(text);
  return match ? { stream: Number(match[1]), sender: Number(match[2]), n: Number(match[3]) } : null;
}
