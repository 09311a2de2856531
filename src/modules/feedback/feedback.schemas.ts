import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../core/http/schemas.js';

/** Longest comment on a rating, in characters. */
export const FEEDBACK_COMMENT_MAX_CHARS = 2000;

const Rating = Type.Union([Type.Literal('up'), Type.Literal('down')], {
  description: 'up (a good answer) or down (a bad one)',
});

export const RateReplyBody = Type.Object(
  {
    rating: Rating,
    comment: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: FEEDBACK_COMMENT_MAX_CHARS,
        description: 'What was good or wrong about the reply (1-2000 characters)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RatedReply = Type.Object({
  messageId: Uuid('The rated reply'),
  rating: Rating,
  comment: Nullable(Type.String({ description: 'Your comment, null when none' })),
  updatedAt: DateTime('When the rating was last given'),
});

/** One rating as the approval detail shows it. */
export const ReplyFeedbackEntry = Type.Object({
  userId: Uuid('Employee who rated the reply'),
  rating: Rating,
  comment: Nullable(Type.String({ description: 'The employee’s comment, null when none' })),
  channel: Type.Union([Type.Literal('web'), Type.Literal('chanA'), Type.Literal('chanB')], {
    description: 'Where the rating was given: web, chanA or chanB',
  }),
  updatedAt: DateTime('When the rating was last given'),
});
