/**
 * An example operator plugin (see docs/plugins.md). Copy this file into the
 * folder PLUGINS_DIR names, restart the service, and it appears in
 * GET /api/v1/plugins; install it on a namespace with
 *
 *   POST /api/v1/namespaces/<namespace-id>/plugins/reply-signature
 *   { "config": { "signature": "— HR assistant" } }
 *
 * It asks the assistant to sign its replies (before_generate) and adds the
 * signature itself when a reply still lacks it (after_confidence_check).
 * A plugin is a plain object: no import from the service is needed.
 */
export default {
  id: 'reply-signature',
  name: 'Reply signature',
  description:
    'Asks the assistant to end every reply with a signature, and adds it to a reply that lacks it.',
  version: '1.0.0',
  // JSON Schema of the namespace configuration; the API refuses (422) a config it does not accept.
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['signature'],
    properties: {
      signature: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  hooks: {
    // Whatever is returned is added to the prompt's system part.
    before_generate({ config }) {
      return { instructions: `End every reply with this line: ${config.signature}` };
    },
    // Return { reply } to replace the reply, { hitl: reason } to send it to a human, nothing to leave it.
    after_confidence_check({ config }, { reply }) {
      if (reply.trimEnd().endsWith(config.signature)) return undefined;
      return { reply: `${reply.trimEnd()}\n\n${config.signature}` };
    },
  },
};
