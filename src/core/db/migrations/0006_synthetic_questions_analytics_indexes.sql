ALTER TABLE "chunks" ADD COLUMN "synthetic_questions" jsonb;--> statement-breakpoint
ALTER TABLE "knowledge_bases" ADD COLUMN "synthetic_questions" jsonb DEFAULT '{"enabled":false,"perChunk":3}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "agent_tasks_created_at_idx" ON "agent_tasks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "approvals_department_id_created_at_idx" ON "approvals" USING btree ("department_id","created_at");--> statement-breakpoint
CREATE INDEX "approvals_created_at_idx" ON "approvals" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "messages_created_at_idx" ON "messages" USING btree ("created_at");