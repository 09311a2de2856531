import { eq } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { departments } from '../../core/db/schema/index.js';

export type DepartmentRow = typeof departments.$inferSelect;
export type NewDepartment = typeof departments.$inferInsert;

export function createDepartmentsRepository(db: Database) {
  return {
    async findById(id: string, tx: DbExecutor = db): Promise<DepartmentRow | null> {
      const [row] = await tx.select().from(departments).where(eq(departments.id, id)).limit(1);
      return row ?? null;
    },

    async findBySlug(slug: string, tx: DbExecutor = db): Promise<DepartmentRow | null> {
      const [row] = await tx.select().from(departments).where(eq(departments.slug, slug)).limit(1);
      return row ?? null;
    },

    async findByName(name: string, tx: DbExecutor = db): Promise<DepartmentRow | null> {
      const [row] = await tx.select().from(departments).where(eq(departments.name, name)).limit(1);
      return row ?? null;
    },

    async insert(values: NewDepartment, tx: DbExecutor = db): Promise<DepartmentRow> {
      const [row] = await tx.insert(departments).values(values).returning();
      return row!;
    },
  };
}

export type DepartmentsRepository = ReturnType<typeof createDepartmentsRepository>;
