import { Type } from 'typebox';
import { DateTime, Uuid } from '../../core/http/schemas.js';
import { LINK_CHANNELS } from './channel-user-id.js';

export const LinkChannelName = Type.Union([Type.Literal(LINK_CHANNELS[0]), Type.Literal(LINK_CHANNELS[1])], {
  description:
    'The messaging channel: chanA (the WhatsApp Cloud API protocol) or chanB (the Telegram Bot API protocol)',
});

export const ChannelIdentityResponse = Type.Object({
  channel: LinkChannelName,
  channelUserId: Type.String({
    description:
      'The sender on that channel: chanA the WhatsApp id (E.164 digits), chanB the Telegram user id',
  }),
  createdAt: DateTime('When the identity was linked'),
});

export const ChannelIdentityList = Type.Object({
  items: Type.Array(ChannelIdentityResponse, { description: 'At most one identity per channel' }),
});

export const UserChannelParams = Type.Object({ id: Uuid('User id'), channel: LinkChannelName });

export const ChannelParams = Type.Object({ channel: LinkChannelName });

export const SetChannelIdentityBody = Type.Object(
  {
    channelUserId: Type.String({
      minLength: 1,
      maxLength: 32,
      description:
        'chanA: the WhatsApp id, 8 to 15 digits of an E.164 number (a leading + is dropped); chanB: the Telegram numeric user id',
    }),
  },
  { additionalProperties: false },
);

export const CreateLinkCodeBody = Type.Object({ channel: LinkChannelName }, { additionalProperties: false });

export const LinkCodeResponse = Type.Object({
  code: Type.String({
    description: 'The one-time code: 8 characters to send to the bot or the channel A number; shown once',
  }),
  expiresAt: DateTime('When the code stops working (15 minutes after it was made)'),
  deepLink: Type.Optional(
    Type.String({
      description:
        'chanB only: a link that opens the bot with the code; absent when the bot’s username is unknown',
    }),
  ),
});

export const ApprovalChannelsBody = Type.Object(
  {
    channels: Type.Array(LinkChannelName, {
      uniqueItems: true,
      maxItems: 2,
      description: 'Where to receive approval requests; an empty list turns them off',
    }),
  },
  { additionalProperties: false },
);

export const ApprovalChannelsResponse = Type.Object({
  approvalChannels: Type.Array(LinkChannelName, {
    description: 'The channels where approval requests reach the user, chanA before chanB',
  }),
});
