ALTER TABLE "agent_tasks" ADD COLUMN "trace_id" text;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "escalated_to_role" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "task_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "approval_id" uuid;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_tasks_message_id_idx" ON "agent_tasks" USING btree ("message_id") WHERE "agent_tasks"."message_id" is not null;--> statement-breakpoint
CREATE INDEX "agent_tasks_conversation_id_created_at_idx" ON "agent_tasks" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_task_id_idx" ON "approvals" USING btree ("task_id") WHERE "approvals"."task_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_task_id_idx" ON "messages" USING btree ("task_id") WHERE "messages"."task_id" is not null and "messages"."direction" = 'outbound';--> statement-breakpoint
CREATE UNIQUE INDEX "intent_examples_namespace_id_text_idx" ON "intent_examples" USING btree ("namespace_id",md5("example_text"));