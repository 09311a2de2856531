/**
 * A document that cannot be ingested as it is (unsupported content, a refused
 * URL, no text): retrying will not help, so the document fails at once with
 * this message as its reason. Any other error is treated as passing (network,
 * provider, database) and the queue retries the job.
 */
export class IngestionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
