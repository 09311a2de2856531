import { Redis } from 'ioredis';

/** Removes every key matching `pattern` (a test file's or a run's prefix followed by `*`). */
export async function deleteRedisKeys(url: string, pattern: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    for await (const keys of client.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await client.del(...keys);
    }
  } finally {
    await client.quit();
  }
}
