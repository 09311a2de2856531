import type { KeyValue } from './kv/kv.js';
import type { DriverLogger } from './logger.js';

/** A recurring task; `slotStart` is the start (Unix ms) of the time slot it runs for. */
export type ScheduledTask = (slotStart: number) => Promise<unknown>;

/** A recurring task as the scheduler runs it: its name (part of its slot claim key), period and work. */
export interface RecurringTask {
  name: string;
  everyMs: number;
  run: ScheduledTask;
}

export interface ScheduleOptions {
  /** Also run (claim) the current slot as soon as the scheduler starts, not only at the next boundary. */
  runAtStart?: boolean;
}

/** The claim key of `name`'s slot holding `now`. */
export const slotKey = (name: string, everyMs: number, now: number) =>
  `sched-${name}-${Math.floor(now / everyMs)}`;

/**
 * Claims `name`'s time slot holding `now` in the shared key-value store
 * (set only when absent), so that of every process asking, exactly one gets
 * it. The claim outlives its slot, so a late tick of the same slot still
 * sees it. Answers whether this caller got the slot.
 */
export function claimSlot(kv: KeyValue, name: string, everyMs: number, now = Date.now()): Promise<boolean> {
  return kv.setIfAbsent(slotKey(name, everyMs, now), String(now), everyMs * 2);
}

interface Entry {
  name: string;
  everyMs: number;
  task: ScheduledTask;
  options: ScheduleOptions;
  timer: NodeJS.Timeout | null;
}

/**
 * The one place for recurring work (retention purge, deadline sweep, idle
 * close, channel A token check). Time is cut into slots of `everyMs` counted
 * from the Unix epoch; every worker process ticks at each slot boundary and
 * claims the slot with {@link claimSlot}, so exactly one replica runs each
 * slot however many are started, on either key-value driver. A slot whose
 * runner crashes is not retried: each task is written to catch up in the
 * next slot (they are idempotent sweeps). Timers are unref'd, so they never
 * keep a process alive; a task's error is logged, never thrown.
 */
export function createScheduler(deps: { kv: KeyValue; logger: DriverLogger }) {
  const entries = new Map<string, Entry>();
  let started = false;

  /** Claims `name`'s slot holding `now` and runs the task when this call got it; answers whether it ran. */
  async function runSlot(name: string, now = Date.now()): Promise<boolean> {
    const entry = entries.get(name);
    if (!entry) throw new Error(`no scheduled task named ${name}`);
    if (!(await claimSlot(deps.kv, name, entry.everyMs, now))) return false;
    await entry.task(Math.floor(now / entry.everyMs) * entry.everyMs);
    return true;
  }

  function tick(entry: Entry): void {
    runSlot(entry.name).catch((error: unknown) =>
      deps.logger.warn({ err: error, task: entry.name }, 'scheduler: a recurring task failed'),
    );
  }

  /** Arms the timer for the next slot boundary (a little after it, so every replica's clock is past it). */
  function arm(entry: Entry): void {
    const now = Date.now();
    const next = (Math.floor(now / entry.everyMs) + 1) * entry.everyMs;
    entry.timer = setTimeout(
      () => {
        if (!started) return;
        tick(entry);
        arm(entry);
      },
      next - now + 50,
    );
    entry.timer.unref();
  }

  function begin(entry: Entry): void {
    if (entry.options.runAtStart) tick(entry);
    arm(entry);
  }

  return {
    /**
     * Registers a recurring task under a unique `name` (it becomes part of
     * the claim key, so keep it free of ':'). Started with the scheduler, or
     * at once when the scheduler runs already.
     */
    every(name: string, everyMs: number, task: ScheduledTask, options: ScheduleOptions = {}): void {
      if (entries.has(name)) throw new Error(`a task named ${name} is scheduled already`);
      if (!Number.isInteger(everyMs) || everyMs < 1)
        throw new Error(`everyMs of ${name} must be a positive integer`);
      const entry: Entry = { name, everyMs, task, options, timer: null };
      entries.set(name, entry);
      if (started) begin(entry);
    },

    runSlot,

    /** The names registered, in registration order. */
    names(): string[] {
      return [...entries.keys()];
    },

    /** Starts ticking every registered task in this (worker) process. */
    start(): void {
      if (started) return;
      started = true;
      for (const entry of entries.values()) begin(entry);
    },

    /** Stops every timer; a task already running finishes on its own. */
    close(): void {
      started = false;
      for (const entry of entries.values()) {
        if (entry.timer) clearTimeout(entry.timer);
        entry.timer = null;
      }
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
