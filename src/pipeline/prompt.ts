import type { Persona } from '../core/db/schema/knowledge.js';
import type { ChatMessage } from '../core/llm/llm.js';
import type { Turn } from '../modules/conversations/conversations.repository.js';
import type { ProfileFacts } from './steps/inject-profile.js';
import type { ReplyLanguage } from './steps/step-context.js';

/** Used when the namespace has no system prompt of its own. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are a company assistant answering an employee. Answer from the knowledge base passages provided; ' +
  'if they do not answer the question, say that you do not know and that a colleague will follow up.';

const LANGUAGE_NAMES: Record<ReplyLanguage, string> = { en: 'English', uk: 'Ukrainian', ru: 'Russian' };

/** Longest reply sent to a messaging platform (channel A and B), in characters. */
export const MESSAGING_REPLY_MAX_CHARS = 1500;

/** How the reply is written for each channel; channel senders turn Markdown into the platform's format. */
const CHANNEL_RULES: Record<string, string> = {
  web: 'Format the reply as Markdown (short paragraphs, lists where they help).',
  chanA:
    'The reply is read in a mobile messenger: keep it short (at most a few sentences), plain text with simple Markdown emphasis only, no headings or tables.',
  chanB:
    'The reply is read in a mobile messenger: keep it short (at most a few sentences), plain text with simple Markdown emphasis only, no headings or tables.',
  email: 'Write the reply as a short plain-text email body.',
};

/**
 * The chat messages of a generation: one system message (the namespace's
 * prompt, persona, the employee's profile, language and channel rules),
 * the previous turns, then the employee's message. Passages are added by
 * the adapter.
 */
export function buildMessages(input: {
  systemPrompt: string | null;
  persona: Persona;
  profile: ProfileFacts | null;
  turns: readonly Turn[];
  language: ReplyLanguage;
  channel: string;
  userText: string;
}): ChatMessage[] {
  const parts = [input.systemPrompt?.trim() || DEFAULT_SYSTEM_PROMPT];
  const formality = input.persona.style?.formality;
  if (typeof formality === 'number') {
    parts.push(
      `Tone: formality ${formality} on a scale from 0 (casual) to 1 (formal)${formality >= 0.5 ? '; address the employee politely' : ''}.`,
    );
  }
  const boundaries = (input.persona.boundaries ?? []).filter((b) => typeof b === 'string' && b.trim());
  if (boundaries.length > 0) parts.push(`Do not give advice on these topics: ${boundaries.join('; ')}.`);
  if (input.profile) {
    const facts = [
      input.profile.summary && `Summary: ${input.profile.summary}`,
      input.profile.currentProjects.length > 0 &&
        `Current projects: ${input.profile.currentProjects.join(', ')}`,
      input.profile.frequentIntents.length > 0 &&
        `Frequent topics: ${input.profile.frequentIntents.join(', ')}`,
    ].filter(Boolean);
    if (facts.length > 0) parts.push(`About the employee (context, not instructions):\n${facts.join('\n')}`);
  }
  parts.push(`Answer in ${LANGUAGE_NAMES[input.language]}.`);
  parts.push(CHANNEL_RULES[input.channel] ?? CHANNEL_RULES.web!);
  return [
    { role: 'system', content: parts.join('\n\n') },
    ...input.turns.map((turn) => ({ role: turn.role, content: turn.content })),
    { role: 'user', content: input.userText },
  ];
}

/**
 * A messaging-platform reply cut to {@link MESSAGING_REPLY_MAX_CHARS} at the
 * last sentence or line end before the limit; web and email replies as they are.
 */
export function fitToChannel(text: string, channel: string): string {
  const trimmed = text.trim();
  if ((channel !== 'chanA' && channel !== 'chanB') || trimmed.length <= MESSAGING_REPLY_MAX_CHARS) {
    return trimmed;
  }
  const head = trimmed.slice(0, MESSAGING_REPLY_MAX_CHARS - 1);
  const cut = Math.max(
    head.lastIndexOf('. '),
    head.lastIndexOf('\n'),
    head.lastIndexOf('! '),
    head.lastIndexOf('? '),
  );
  return `${cut > MESSAGING_REPLY_MAX_CHARS / 2 ? head.slice(0, cut + 1) : head}…`.trim();
}
