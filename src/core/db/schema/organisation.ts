import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, textArray, tsz, updatedAt } from './columns.js';

export const departments = pgTable('departments', {
  id: id(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique('departments_slug_unique'),
  color: text('color').notNull().default('#64748b'),
  description: text('description'),
  /** Free-form settings; `defaultNamespaceId` routes channel messages (docs/pipeline.md, routing). */
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  /** Set by soft archive; archived departments are hidden from lists unless asked for. */
  archivedAt: tsz('archived_at'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const roles = pgTable('roles', {
  id: id(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique('roles_slug_unique'),
  description: text('description'),
  /** A global role: its holders see every department. */
  allDepartments: boolean('all_departments').notNull().default(false),
  departmentIds: textArray('department_ids'),
  permissions: textArray('permissions'),
  /** Seeded roles (admin, dept_head, approver, employee); they cannot be deleted. */
  isSystem: boolean('is_system').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const users = pgTable(
  'users',
  {
    id: id(),
    email: text('email').notNull().unique('users_email_unique'),
    /** argon2id hash; null for users created from a channel, who cannot log in until a password is set. */
    passwordHash: text('password_hash'),
    name: text('name').notNull(),
    /** E.164 digits without '+', matched against channel A senders. */
    phone: text('phone'),
    /** The role's slug, kept beside roleId because the API exposes it as `role`. */
    role: text('role').notNull(),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    isActive: boolean('is_active').notNull().default(true),
    /** Bumped on password change, logout-all and deactivation; tokens carrying an older value are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    extraPermissions: textArray('extra_permissions'),
    revokedPermissions: textArray('revoked_permissions'),
    extraDepartmentIds: textArray('extra_department_ids'),
    revokedDepartmentIds: textArray('revoked_department_ids'),
    /** File name under DATA_DIR/avatars, served at /static/avatars/<name>. */
    avatarFile: text('avatar_file'),
    /** en, uk or ru: the language of what the service writes to the user unprompted; null when not chosen. */
    language: text('language'),
    /**
     * Created from a channel for a sender nobody linked yet (CHANNEL_UNKNOWN_SENDER=placeholder).
     * Linking that sender to a real user merges this one into it (docs/channels.md).
     */
    isPlaceholder: boolean('is_placeholder').notNull().default(false),
    /**
     * The channels (chanA, chanB) where the user asked to receive approval
     * requests; only channels they hold an identity on (docs/approvals.md).
     */
    approvalChannels: textArray('approval_channels'),
    lastLoginAt: tsz('last_login_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('users_department_id_idx').on(t.departmentId),
    index('users_role_id_idx').on(t.roleId),
    /** Who holds a permission by an extra grant (the approvers of a reply). */
    index('users_extra_permissions_idx').using('gin', t.extraPermissions),
    uniqueIndex('users_phone_idx').on(t.phone).where(sql`${t.phone} is not null`),
    check('users_language_check', sql`${t.language} in ('en', 'uk', 'ru')`),
  ],
);

export const employeeProfiles = pgTable('employee_profiles', {
  id: id(),
  userId: uuid('user_id')
    .notNull()
    .unique('employee_profiles_user_id_unique')
    .references(() => users.id, { onDelete: 'cascade' }),
  summary: text('summary').notNull().default(''),
  currentProjects: textArray('current_projects'),
  preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
  frequentIntents: textArray('frequent_intents'),
  accessLevel: text('access_level').notNull().default('standard'),
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Links a messaging-platform account to a user, one per (user, channel):
 * `chanA` holds the WhatsApp id (E.164 digits), `chanB` the Telegram numeric user id.
 */
export const channelIdentities = pgTable(
  'channel_identities',
  {
    id: id(),
    channel: text('channel').notNull(),
    channelUserId: text('channel_user_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('channel_identities_channel_channel_user_id_idx').on(t.channel, t.channelUserId),
    index('channel_identities_user_id_idx').on(t.userId),
    uniqueIndex('channel_identities_user_id_channel_idx').on(t.userId, t.channel),
  ],
);

/** One-time codes an employee sends on a channel to link the sender to themself (15 minutes). */
export const channelLinkCodes = pgTable(
  'channel_link_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    /** SHA-256 of the code; the code itself is only ever shown to its user once. */
    codeHash: text('code_hash').notNull().unique('channel_link_codes_code_hash_unique'),
    expiresAt: tsz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  // A new code for the same user and channel replaces the previous one.
  (t) => [uniqueIndex('channel_link_codes_user_id_channel_idx').on(t.userId, t.channel)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token; the token itself is only ever logged once. */
    tokenHash: text('token_hash').notNull().unique('password_reset_tokens_token_hash_unique'),
    expiresAt: tsz('expires_at').notNull(),
    usedAt: tsz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
);
