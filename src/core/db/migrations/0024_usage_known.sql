ALTER TABLE "agent_runs" ADD COLUMN "usage_known" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_tasks" ADD COLUMN "usage_known" boolean DEFAULT true NOT NULL;