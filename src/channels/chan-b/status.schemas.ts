import { Type } from 'typebox';
import { DateTime, Nullable } from '../../core/http/schemas.js';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

/** Jobs of one channel B queue by state. */
const ChanBQueueCounts = Type.Object({
  waiting: Count('Channel B jobs waiting to run'),
  delayed: Count('Channel B jobs waiting for their time (rate-limited or retried)'),
  active: Count('Channel B jobs running now'),
  completed: Count('Channel B jobs finished and still kept'),
  failed: Count('Channel B jobs that failed their last try and are still kept'),
});

export const ChanBStatusResponse = Type.Object({
  configured: Type.Boolean({
    description: 'Whether CHANB_BOT_TOKEN is set; without it nothing polls or sends',
  }),
  botUsername: Nullable(
    Type.String({
      maxLength: 64,
      description: 'The bot’s username as getMe answers it; null when not configured or not reachable',
    }),
  ),
  polling: Type.Union(
    [Type.Literal('stopped'), Type.Literal('polling'), Type.Literal('standby'), Type.Literal('backing_off')],
    {
      description:
        'polling (a worker holds the lock and long-polls), backing_off (it waits after a failed call), standby (a worker waits for the lock) or stopped (no worker polls, or not configured)',
    },
  ),
  lockHolder: Nullable(
    Type.String({
      maxLength: 200,
      description: 'Worker id (hostname-pid-random) of the process holding the poller lock; null when none',
    }),
  ),
  lastUpdateId: Nullable(
    Type.Integer({
      minimum: 0,
      description: 'The last update enqueued on chanB-inbound; null when none yet',
    }),
  ),
  lastError: Nullable(
    Type.Object(
      {
        message: Type.String({
          maxLength: 500,
          description: 'The platform’s error code and description (a 409 Conflict, 401, network error)',
        }),
        at: DateTime('When the call failed'),
      },
      { description: 'The last failed call to the platform; null when none' },
    ),
  ),
  queues: Type.Object(
    {
      'chanB-inbound': ChanBQueueCounts,
      'chanB-outbound': ChanBQueueCounts,
    },
    { description: 'Job counts of the channel B queues, by state' },
  ),
});
