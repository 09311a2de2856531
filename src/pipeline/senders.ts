import type { Database } from '../core/db/client.js';
import { ValidationError } from '../core/errors/app-errors.js';
import { isUuid } from '../core/ids.js';
import type { DepartmentRow, DepartmentsRepository } from '../modules/departments/departments.repository.js';
import { slugify } from '../modules/departments/slug.js';
import type { RolesRepository } from '../modules/roles/roles.repository.js';
import type { ConversationsRepository, UserRow } from './conversations.repository.js';

/** Channels with a transport; `email` is a conversation channel value without one (see docs/pipeline.md). */
export type InboundChannel = 'web' | 'chanA' | 'chanB';

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
  conversations: ConversationsRepository;
  departments: DepartmentsRepository;
  roles: RolesRepository;
  /** CHANNEL_DEFAULT_DEPARTMENT (id or slug), or null for the bootstrap department. */
  channelDefaultDepartment: string | null;
  /** ADMIN_DEPARTMENT: the bootstrap department's name, created when missing. */
  bootstrapDepartment: string;
}) {
  const { db, conversations, departments, roles } = deps;

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
        (await conversations.insertChannelUser(
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
        )) ?? (await conversations.findUserByEmail(values.email, tx));
      if (!user) throw new Error(`channel user ${values.email} was neither created nor found`);
      if (values.identity) {
        await conversations.insertIdentity(
          values.identity.channel,
          values.identity.channelUserId,
          user.id,
          tx,
        );
      }
      return user;
    });
  }

  return {
    /**
     * The user who sent a message, and the channel user id the conversation is keyed by.
     * @throws ValidationError when the sender cannot be identified.
     */
    async resolve(input: {
      channel: InboundChannel;
      channelUserId: string;
      userId?: string;
      senderName?: string;
    }): Promise<{ user: UserRow; channelUserId: string }> {
      const senderName = input.senderName?.trim().slice(0, 200) || null;
      if (input.channel === 'web') {
        const user = input.userId ? await conversations.findUserById(input.userId) : null;
        if (!user) {
          throw new ValidationError([{ field: 'userId', message: 'a web message needs an existing user' }]);
        }
        return { user, channelUserId: user.id };
      }
      if (input.channel === 'chanA') {
        const digits = input.channelUserId.replace(/\D/g, '');
        if (digits.length < 5 || digits.length > 15) {
          throw new ValidationError([
            { field: 'channelUserId', message: 'must be a phone number of 5 to 15 digits' },
          ]);
        }
        const user =
          (await conversations.findUserByPhone(digits)) ??
          (await createUser({
            email: `chana-${digits}@${CHANNEL_EMAIL_DOMAIN}`,
            name: senderName ?? `+${digits}`,
            phone: digits,
            identity: null,
          }));
        return { user, channelUserId: digits };
      }
      const id = input.channelUserId.trim();
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
        throw new ValidationError([{ field: 'channelUserId', message: 'must be the platform user id' }]);
      }
      const user =
        (await conversations.findUserByIdentity('chanB', id)) ??
        (await createUser({
          email: `chanb-${id.toLowerCase()}@${CHANNEL_EMAIL_DOMAIN}`,
          name: senderName ?? `chanB user ${id}`,
          phone: null,
          identity: { channel: 'chanB', channelUserId: id },
        }));
      return { user, channelUserId: id };
    },
  };
}

export type SenderResolver = ReturnType<typeof createSenderResolver>;
