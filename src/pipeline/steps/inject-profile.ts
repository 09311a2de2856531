import type { Persona } from '../../core/db/schema/knowledge.js';
import type { Turn } from '../../modules/conversations/conversations.repository.js';
import type { MessagesRepository } from '../../modules/conversations/messages.repository.js';
import { replyLanguage } from '../language.js';
import type { ProfileFacts, ReplyLanguage, Step } from './step-context.js';

export type { ProfileFacts } from './step-context.js';

/** Turns of the conversation before the message that go into the prompt and the approval context. */
export const HISTORY_TURNS = 10;

export interface InjectedProfile {
  systemPrompt: string | null;
  persona: Persona;
  profile: ProfileFacts | null;
  turns: Turn[];
  language: ReplyLanguage;
}

/**
 * `inject_profile`: the namespace's system prompt and persona, the
 * employee's profile, the last turns of the conversation and the language
 * the reply will be written in.
 */
export function createInjectProfileStep(deps: {
  messages: Pick<MessagesRepository, 'turnsBefore'>;
  profiles: { findProfile(userId: string): Promise<ProfileFacts | null> };
}): Step<void, InjectedProfile> {
  return {
    input: ({ namespace, user, conversation }) => ({
      namespaceId: namespace.id,
      userId: user.id,
      conversationId: conversation.id,
    }),
    async run(context) {
      const { namespace, user, inbound } = context;
      // The runner loads both with the task's context (two round trips less); read them when it did not.
      const row = context.profile !== undefined ? context.profile : await deps.profiles.findProfile(user.id);
      const profile: ProfileFacts | null = row
        ? {
            summary: row.summary,
            currentProjects: row.currentProjects,
            frequentIntents: row.frequentIntents,
            accessLevel: row.accessLevel,
          }
        : null;
      const turns = context.turns ?? (await deps.messages.turnsBefore(inbound, HISTORY_TURNS));
      const value: InjectedProfile = {
        systemPrompt: namespace.systemPrompt,
        persona: namespace.persona,
        profile,
        turns,
        language: replyLanguage(inbound.content, namespace.persona.language),
      };
      return { value, output: { ...value } };
    },
  };
}
