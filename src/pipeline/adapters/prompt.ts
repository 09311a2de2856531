import type { ChatMessage, ContextPassage } from '../../core/llm/llm.js';
import { withPassages } from '../../core/llm/openai-compatible.js';
import type { GenerateInput } from './adapter.js';

const LANGUAGE_NAMES: Record<GenerateInput['language'], string> = {
  en: 'English',
  uk: 'Ukrainian',
  ru: 'Russian',
};

const ROLE_HEADINGS: Record<ChatMessage['role'], string> = {
  system: '## System',
  user: '## User',
  assistant: '## Assistant',
};

/** A conversation flattened for a command-line agent, which takes one text rather than chat messages. */
export interface RenderedPrompt {
  /** Every message under a role heading, the passages quoted as data after the system messages. */
  conversation: string;
  /** What to do with it: reply to the last user message, in the conversation's language, text only. */
  instruction: string;
}

/**
 * Renders the messages and passages as one text. The passages go in exactly
 * as the `api` adapter sends them (one system message, quoted between
 * `<<<` and `>>>`, marked as data, not instructions), so every adapter sees
 * the same context.
 */
export function renderPrompt(input: {
  messages: readonly ChatMessage[];
  passages: readonly ContextPassage[];
  language: GenerateInput['language'];
}): RenderedPrompt {
  const conversation = withPassages(input.messages, input.passages)
    .map((m) => `${ROLE_HEADINGS[m.role]}\n${m.content.trim()}`)
    .join('\n\n');
  const instruction =
    `Write the assistant's next reply to the last user message above, in ${LANGUAGE_NAMES[input.language]}. ` +
    'Answer with the reply text only: no preamble, no headings, do not use tools and do not change any file.';
  return { conversation, instruction };
}

/** The whole prompt in one text: the conversation, then the instruction. */
export function promptText(prompt: RenderedPrompt): string {
  return `${prompt.conversation}\n\n## Task\n${prompt.instruction}\n`;
}
