import type { Config } from '../../core/config/config.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { DeliveryFailures } from '../outbound/delivery-failures.js';
import type { OutboundRepository } from '../outbound/outbound.repository.js';
import type { GraphClient } from './graph-client.js';
import type { TokenLifecycle } from './token-lifecycle.js';

/** A recipient is sent the re-engagement template at most once in this long. */
const REENGAGEMENT_ONCE_PER_MS = 24 * 3_600_000;

/**
 * Outside the 24-hour customer-service window (Graph code 131047) the
 * platform takes only approved templates. The reply's free text is then
 * not delivered, and the message stays `failed` with a reason that says
 * so; when CHANA_REENGAGEMENT_TEMPLATE is set, that template is sent to the
 * employee (once per recipient per 24 hours, however many replies failed)
 * so that their answer reopens the window, and the reason records it. The
 * approvers are notified either way: a human decides whether to send the
 * reply again once the employee has written.
 */
export function createReengagement(deps: {
  config: Config['chanA'];
  kv: KeyValue;
  graph: GraphClient;
  tokens: Pick<TokenLifecycle, 'current'>;
  repository: Pick<OutboundRepository, 'load'>;
  failures: DeliveryFailures;
}) {
  const { config, kv, graph, tokens } = deps;

  /** Sends the template to `recipient` unless it was sent in the last 24 hours; answers the reason to record. */
  async function reasonAfterWindowClosed(recipient: string, platformReason: string): Promise<string> {
    const base = `Outside the 24-hour window (code 131047), the reply was not delivered: ${platformReason}`;
    const template = config.reengagementTemplate;
    if (!template) return `${base}. No re-engagement template is configured (CHANA_REENGAGEMENT_TEMPLATE).`;
    const claim = `chanA:reengaged:${recipient}`;
    if (!(await kv.setIfAbsent(claim, String(Date.now()), REENGAGEMENT_ONCE_PER_MS)))
      return `${base}. The re-engagement template "${template}" was sent to this employee within the last 24 hours.`;
    const token = await tokens.current();
    const result =
      token && config.phoneNumberId
        ? await graph.sendMessage(
            { phoneNumberId: config.phoneNumberId, token, to: recipient },
            {
              type: 'template',
              template: { name: template, language: { code: config.reengagementTemplateLanguage } },
            },
          )
        : null;
    if (!result?.ok) {
      // Not sent: the next failed reply may try again.
      await kv.delete(claim);
      const why = result ? result.failure.reason : 'channel A is not configured';
      return `${base}. Sending the re-engagement template "${template}" failed: ${why}.`;
    }
    return `${base}. The re-engagement template "${template}" was sent (${result.value.id}).`;
  }

  return {
    reasonAfterWindowClosed,

    /**
     * For a `failed` receipt with code 131047, which comes after the
     * platform accepted the message (the receipts path has usually marked
     * it failed already): sends the template as above, records the reason
     * (`metadata.failureReason`, status `failed`) and notifies the
     * department's approvers. Answers false when the message is unknown or
     * its failure was handled already (a repeated call changes nothing).
     */
    async handleReengagementFailure(
      messageId: string,
      platformReason = 'Message failed to send',
    ): Promise<boolean> {
      const record = await deps.repository.load(messageId);
      if (!record?.conversation.channelUserId) return false;
      if (record.message.status === 'failed' && typeof record.message.metadata?.failureReason === 'string')
        return false;
      const reason = await reasonAfterWindowClosed(record.conversation.channelUserId, platformReason);
      const row = await deps.failures.fail(messageId, reason, {
        from: ['queued', 'sent', 'delivered', 'read', 'failed'],
      });
      return row !== null;
    },
  };
}

export type Reengagement = ReturnType<typeof createReengagement>;
