import { Type } from 'typebox';
import { DateTime, Nullable } from '../../core/http/schemas.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

/** Jobs of one queue by state. */
export const QueueCounts = Type.Object({
  waiting: Count('Jobs waiting to run'),
  delayed: Count('Jobs waiting for their time: rate-limited or retried messages'),
  active: Count('Jobs running now'),
  completed: Count('Jobs finished and still kept'),
  failed: Count('Jobs that failed their last try and are still kept'),
});

export const ChanAStatusResponse = Type.Object({
  configured: Type.Boolean({
    description: 'Whether channel A can send: CHANA_PHONE_NUMBER_ID and CHANA_ACCESS_TOKEN are set',
  }),
  phoneNumberId: Nullable(
    Type.String({
      maxLength: 64,
      description: 'The sending phone-number id (CHANA_PHONE_NUMBER_ID); null when unset',
    }),
  ),
  tokenExpiresAt: Nullable(
    DateTime('When the stored access token expires; null when unknown (such a token is not exchanged)'),
  ),
  tokenSource: Type.Union([Type.Literal('configured'), Type.Literal('exchanged'), Type.Literal('none')], {
    description:
      'configured (the stored token is CHANA_ACCESS_TOKEN), exchanged (a long-lived token obtained since) or none',
  }),
  lastInboundAt: Nullable(DateTime('When the last inbound message was taken in; null when none yet')),
  lastOutboundAt: Nullable(DateTime('When the platform last accepted a reply; null when none yet')),
  queues: Type.Object(
    {
      'chanA-inbound': QueueCounts,
      'chanA-outbound': QueueCounts,
    },
    { description: 'Job counts of the channel A queues, by state' },
  ),
});
