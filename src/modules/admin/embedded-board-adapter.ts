import { BaseAdapter } from '@bull-board/api/dist/queueAdapters/base.js';
import type {
  JobCleanStatus,
  JobCounts,
  JobSchedulerUpdateResult,
  JobStatus,
  QueueJob,
  QueueJobJson,
  QueueJobOptions,
  QueueMetrics,
  Status,
} from '@bull-board/api/dist/types.js';
import { NotImplementedError } from '../../core/errors/app-errors.js';
import type { JobListing, JobState, QueueDriver, QueueName } from '../../core/queue/queue.js';

/** The dashboard's job statuses that the embedded driver has, in the order the board shows them. */
const STATUSES = [
  'active',
  'waiting',
  'completed',
  'failed',
  'delayed',
] as const satisfies readonly JobState[];

const unsupported = (what: string) =>
  new NotImplementedError(`The embedded queue driver does not support ${what}; use the Redis driver for it`);

/**
 * bull-board's view of one queue of the embedded driver (jobs in the database),
 * through the QueueDriver's listing, retry, clean and remove methods only, so
 * the dashboard reads the same rows the workers claim. What the driver has no
 * notion of (pausing, schedulers, metrics, logs) answers empty or 501.
 */
export class EmbeddedBoardAdapter extends BaseAdapter {
  constructor(
    private readonly driver: QueueDriver,
    private readonly queueName: QueueName,
  ) {
    super('bullmq', { allowRetries: true, readOnlyMode: false, prefix: '', delimiter: '' });
  }

  getName(): string {
    return this.queueName;
  }

  getStatuses(): Status[] {
    return ['latest', ...STATUSES];
  }

  getJobStatuses(): JobStatus[] {
    return [...STATUSES];
  }

  async getJobCounts(): Promise<JobCounts> {
    return { ...(await this.driver.counts(this.queueName)) };
  }

  async getJobs(jobStatuses: JobStatus[], start = 0, end = 19): Promise<QueueJob[]> {
    const states = STATUSES.filter((state) => jobStatuses.includes(state));
    const jobs = await this.driver.listJobs(this.queueName, states, start, Math.max(0, end - start + 1));
    return jobs.map((job) => this.toQueueJob(job));
  }

  async getJob(id: string): Promise<QueueJob | null> {
    const [job] = await this.findJob(id);
    return job ? this.toQueueJob(job) : null;
  }

  async addJob(name: string, data: unknown, options: QueueJobOptions): Promise<QueueJob> {
    const id = await this.driver.add(this.queueName, name, data, {
      ...(options.delay !== undefined ? { delayMs: options.delay } : {}),
      ...(options.attempts !== undefined ? { attempts: options.attempts } : {}),
    });
    const [job] = await this.findJob(id);
    if (!job) throw new Error(`job ${id} of ${this.queueName} vanished right after it was added`);
    return this.toQueueJob(job);
  }

  async clean(queueStatus: JobCleanStatus, graceTimeMs: number): Promise<void> {
    // Running jobs are never removed from under their worker.
    if (queueStatus === 'active') return;
    await this.driver.cleanJobs(
      this.queueName,
      queueStatus === 'wait' ? 'waiting' : queueStatus,
      graceTimeMs,
    );
  }

  async empty(): Promise<void> {
    await this.driver.cleanJobs(this.queueName, 'waiting', 0);
    await this.driver.cleanJobs(this.queueName, 'delayed', 0);
  }

  async getJobLogs(): Promise<string[]> {
    return [];
  }

  async getMetrics(): Promise<QueueMetrics> {
    return { meta: { count: 0, prevTS: 0, prevCount: 0 }, data: [], count: 0 };
  }

  async getRedisInfo(): Promise<string | null> {
    return null;
  }

  async isPaused(): Promise<boolean> {
    return false;
  }

  async pause(): Promise<void> {
    throw unsupported('pausing a queue');
  }

  async resume(): Promise<void> {
    throw unsupported('pausing a queue');
  }

  async obliterate(): Promise<void> {
    throw unsupported('obliterating a queue');
  }

  async promoteAll(): Promise<void> {
    throw unsupported('promoting delayed jobs');
  }

  async removeJobScheduler(): Promise<boolean> {
    return false;
  }

  async getJobSchedulers(): Promise<[]> {
    return [];
  }

  async getJobSchedulersCount(): Promise<number> {
    return 0;
  }

  async updateJobScheduler(): Promise<JobSchedulerUpdateResult> {
    return 'not-found';
  }

  async runJobSchedulerNow(): Promise<'not-found'> {
    return 'not-found';
  }

  async getGlobalConcurrency(): Promise<number | null> {
    return null;
  }

  async setGlobalConcurrency(): Promise<void> {
    throw unsupported('a global concurrency');
  }

  private async findJob(id: string): Promise<JobListing[]> {
    const job = await this.driver.inspectJob(this.queueName, id);
    return job ? [job] : [];
  }

  private toQueueJob(job: JobListing): QueueJob {
    const { driver, queueName } = this;
    const json: QueueJobJson = {
      id: job.id,
      name: job.name,
      progress: 0,
      attemptsMade: job.attemptsMade,
      timestamp: job.addedAt,
      finishedOn: job.finishedAt,
      processedOn: null,
      failedReason: job.failedReason ?? '',
      stacktrace: null,
      data: job.data,
      returnvalue: job.result,
      opts: { attempts: job.maxAttempts },
    };
    return {
      opts: {},
      toJSON: () => json,
      getState: async () => (await driver.getJob(queueName, job.id))?.state ?? 'unknown',
      retry: async () => {
        await driver.retryJob(queueName, job.id);
      },
      remove: async () => {
        await driver.removeJob(queueName, job.id);
      },
      promote: async () => {
        throw unsupported('promoting a delayed job');
      },
    };
  }
}
