import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Each of these tables is written by one repository file: its statements
 * (Drizzle's insert/update/delete, or SQL text, including the parts of the
 * pipeline's one-statement writes) all live there, so a change to how the
 * table is written is made in one place (docs/architecture.md).
 */
const OWNERS: Record<string, string> = {
  conversations: 'modules/conversations/conversations.repository.ts',
  messages: 'modules/conversations/messages.repository.ts',
  approvals: 'modules/approvals/approvals.repository.ts',
  notifications: 'modules/notifications/notifications.repository.ts',
};

const SRC = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The statements that write `table` in `text`: Drizzle's builders and SQL, with the table named or interpolated. */
function writesOf(table: string, text: string): string[] {
  const name = `(?:${table}|\\$\\{${table}\\})`;
  const patterns = [
    new RegExp(`\\.(?:insert|update|delete)\\(\\s*${table}\\s*\\)`, 'g'),
    new RegExp(`\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${name}(?![\\w$])`, 'gi'),
  ];
  return patterns.flatMap((pattern) => text.match(pattern) ?? []);
}

describe('table owners', () => {
  it('finds writes in every form the code uses', () => {
    expect(writesOf('messages', 'tx.update(messages).set({})')).toHaveLength(1);
    expect(writesOf('messages', 'INSERT INTO messages (id) VALUES (1)')).toHaveLength(1);
    expect(writesOf('messages', 'update ${messages} set status = 1')).toHaveLength(1);
    expect(writesOf('messages', 'DELETE FROM messages WHERE true')).toHaveLength(1);
    expect(writesOf('messages', 'SELECT * FROM messages; UPDATE messages_archive SET x = 1')).toHaveLength(0);
  });

  it.each(Object.entries(OWNERS))('writes %s only from %s', (table, owner) => {
    const writers = sourceFiles(SRC)
      .filter((file) => writesOf(table, readFileSync(file, 'utf8')).length > 0)
      .map((file) => path.relative(SRC, file).split(path.sep).join('/'));
    expect(writers).toEqual([owner]);
  });
});
