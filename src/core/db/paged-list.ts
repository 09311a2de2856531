/** One page of an offset list: at most `limit` rows after skipping `offset`. */
export interface Page {
  limit: number;
  offset: number;
}

/** A page of rows and the number of rows the whole (filtered) list holds. */
export interface PagedRows<T> {
  rows: T[];
  total: number;
}

export interface PagedListQueries<T> {
  page: Page;
  /** Reads the page's rows; the query applies `limit` and `offset` itself. */
  rows: (page: Page) => PromiseLike<T[]>;
  /**
   * Counts every row of the list (same filter, no limit or offset), as one
   * row `{ total }`; Drizzle's `select({ total: count() })` fits as is.
   * Runs only when the page cannot tell the total on its own.
   */
  total: () => PromiseLike<ReadonlyArray<{ total: number }>>;
}

/**
 * Runs an offset list's page query and, only when needed, its count query.
 *
 * A short page (fewer rows than `limit`) ends the list, so the total is
 * `offset + rows.length` and the count is skipped: that is every first page
 * of a small list, the usual case, one round trip instead of two. The count
 * still runs for a full page (more rows may follow) and for an empty page
 * past the first (it says nothing about how many rows lie before it).
 *
 * Pass the same `tx` to both queries inside a transaction.
 */
export async function pagedList<T>(queries: PagedListQueries<T>): Promise<PagedRows<T>> {
  const { page } = queries;
  const rows = await queries.rows(page);
  if (isLastPage(page, rows.length)) return { rows, total: page.offset + rows.length };
  const [counted] = await queries.total();
  return { rows, total: counted?.total ?? 0 };
}

/** Whether a page that came back with `found` rows is known to end the list. */
export function isLastPage(page: Page, found: number): boolean {
  return found < page.limit && (found > 0 || page.offset === 0);
}
