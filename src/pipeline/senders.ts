import type { Database } from '../core/db/client.js';
import { ValidationError } from '../core/errors/app-errors.js';
import { isUuid } from '../core/ids.js';
import type { DepartmentRow, DepartmentsRepository } from '../modules/departments/departments.repository.js';
import { slugify } from '../modules/departments/slug.js';
import type { RolesRepository } from '../modules/roles/roles.repository.js';
import type { SenderLookup, SendersRepository, UserRow } from './senders.repository.js';

/** Channels with a transport; `email` is a conversation channel value without one (see docs/pipeline.md). */
export type InboundChannel = 'web' | 'chanA' | 'chanB';

/** What identifies a message's sender, as the transport received it. */
export interface SenderInput {
  channel: InboundChannel;
  channelUserId: string;
  /** Web: the calling user. */
  userId?: string;
  senderName?: string;
}

/** A sender as {@link createSenderResolver}'s `identify` reads it, before any user row is read. */
export interface IdentifiedSender {
  lookup: SenderLookup;
  /** What the sender's conversation is keyed by on its channel. */
  channelUserId: string;
  /** The name the transport gave, trimmed; null when none. */
  senderName: string | null;
}

const unknownWebUser = () =>
  new ValidationError([{ field: 'userId', message: 'a web message needs an existing user' }]);

/** Domain of the placeholder emails of users created from a channel (`.invalid` never resolves). */
const CHANNEL_EMAIL_DOMAIN = 'channel.invalid';

/**
 * Finds the user behind a channel sender, creating an unknown sender as an
 * active `employee` without a usable password in the channel default
 * department. Channel A matches `User.phone` (E.164 digits), channel B a
 * stored channel identity; web messages name their (authenticated) user.
 */
export function createSenderResolver(deps: {
  db: Database;
  senders: SendersRepository;
  departments: DepartmentsRepository;
  roles: RolesRepository;
  /** CHANNEL_DEFAULT_DEPARTMENT (id or slug), or null for the bootstrap department. */
  channelDefaultDepartment: string | null;
  /** ADMIN_DEPARTMENT: the bootstrap department's name, created when missing. */
  bootstrapDepartment: string;
}) {
  const { db, senders, departments, roles } = deps;

  /** CHANNEL_DEFAULT_DEPARTMENT, else the bootstrap department (created when missing). */
  async function defaultDepartment(): Promise<DepartmentRow> {
    const configured = deps.channelDefaultDepartment;
    if (configured) {
      const found = isUuid(configured)
        ? await departments.findById(configured)
        : await departments.findBySlug(configured.toLowerCase());
      if (!found) throw new Error(`CHANNEL_DEFAULT_DEPARTMENT names no department: "${configured}"`);
      return found;
    }
    const name = deps.bootstrapDepartment;
    const existing = (await departments.findByName(name)) ?? (await departments.findBySlug(slugify(name)));
    if (existing) return existing;
    try {
      return await departments.insert({ name, slug: slugify(name) });
    } catch (error) {
      // Created by a concurrent message in the meantime.
      const raced = await departments.findBySlug(slugify(name));
      if (raced) return raced;
      throw error;
    }
  }

  /** Creates the sender; when a concurrent message created it first, answers that user. */
  async function createUser(values: {
    email: string;
    name: string;
    phone: string | null;
    identity: { channel: string; channelUserId: string } | null;
  }): Promise<UserRow> {
    const role = await roles.findBySlug('employee');
    if (!role) throw new Error('system role employee is missing');
    const department = await defaultDepartment();
    return db.transaction(async (tx) => {
      const user =
        (await senders.insertChannelUser(
          {
            email: values.email,
            name: values.name,
            phone: values.phone,
            passwordHash: null,
            role: role.slug,
            roleId: role.id,
            departmentId: department.id,
            isActive: true,
          },
          tx,
        )) ?? (await senders.findUserByEmail(values.email, tx));
      if (!user) throw new Error(`channel user ${values.email} was neither created nor found`);
      if (values.identity) {
        await senders.insertIdentity(values.identity.channel, values.identity.channelUserId, user.id, tx);
      }
      return user;
    });
  }

  /**
   * How the sender of a message is found, and the channel user id its
   * conversation is keyed by (web: the user id; channel A: the phone's
   * digits; channel B: the platform's user id). Reads nothing.
   * @throws ValidationError when the sender cannot be identified.
   */
  function identify(input: SenderInput): IdentifiedSender {
    const senderName = input.senderName?.trim().slice(0, 200) || null;
    if (input.channel === 'web') {
      if (!input.userId || !isUuid(input.userId)) throw unknownWebUser();
      return { lookup: { by: 'id', userId: input.userId }, channelUserId: input.userId, senderName };
    }
    if (input.channel === 'chanA') {
      const digits = input.channelUserId.replace(/\D/g, '');
      if (digits.length < 5 || digits.length > 15) {
        throw new ValidationError([
          { field: 'channelUserId', message: 'must be a phone number of 5 to 15 digits' },
        ]);
      }
      return { lookup: { by: 'phone', digits }, channelUserId: digits, senderName };
    }
    const id = input.channelUserId.trim();
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
      throw new ValidationError([{ field: 'channelUserId', message: 'must be the platform user id' }]);
    }
    return {
      lookup: { by: 'identity', channel: 'chanB', channelUserId: id },
      channelUserId: id,
      senderName,
    };
  }

  /**
   * Creates the user of a channel sender that {@link identify} found no
   * user for: an active `employee` without a usable password in the
   * channel default department (a concurrent message may have created it
   * first; that user is answered then).
   * @throws ValidationError for a web sender: web messages come from existing users only.
   */
  async function create(sender: IdentifiedSender): Promise<UserRow> {
    const { lookup, senderName } = sender;
    switch (lookup.by) {
      case 'id':
        throw unknownWebUser();
      case 'phone':
        return createUser({
          email: `chana-${lookup.digits}@${CHANNEL_EMAIL_DOMAIN}`,
          name: senderName ?? `+${lookup.digits}`,
          phone: lookup.digits,
          identity: null,
        });
      case 'identity':
        return createUser({
          email: `chanb-${lookup.channelUserId.toLowerCase()}@${CHANNEL_EMAIL_DOMAIN}`,
          name: senderName ?? `chanB user ${lookup.channelUserId}`,
          phone: null,
          identity: { channel: lookup.channel, channelUserId: lookup.channelUserId },
        });
    }
  }

  return {
    identify,
    create,
    /**
     * The user who sent a message (created when a channel sender is new),
     * and the channel user id the conversation is keyed by.
     * @throws ValidationError when the sender cannot be identified.
     */
    async resolve(input: SenderInput): Promise<{ user: UserRow; channelUserId: string }> {
      const sender = identify(input);
      const user = (await senders.findSender(sender.lookup)) ?? (await create(sender));
      return { user, channelUserId: sender.channelUserId };
    },
  };
}

export type SenderResolver = ReturnType<typeof createSenderResolver>;
