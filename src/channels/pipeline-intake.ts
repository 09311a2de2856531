import type { PipelineModule } from '../pipeline/pipeline.module.js';

/** What a channel's intake takes from the pipeline, for both channels alike. */
export type PipelineForIntake = Pick<PipelineModule, 'inbound' | 'routing' | 'senders' | 'repositories'>;

/**
 * A channel intake's pipeline parts: the inbound service (message → task),
 * the sender resolver, the conversation and message writers, the sender
 * lookup, and the reply routing (fixed replies go out as the pipeline's do).
 */
export function pipelineIntake(pipeline: PipelineForIntake) {
  return {
    inbound: pipeline.inbound,
    senders: pipeline.senders,
    conversations: pipeline.repositories.conversations,
    messages: pipeline.repositories.messages,
    senderRows: pipeline.repositories.senders,
    routing: pipeline.routing,
  };
}
