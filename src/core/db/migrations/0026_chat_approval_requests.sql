CREATE TABLE "approval_chat_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"approval_id" uuid NOT NULL,
	"notification_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"address" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"lease_until" timestamp with time zone,
	"platform_message_id" text,
	"awaiting" text,
	"awaiting_until" timestamp with time zone,
	"escalation_choices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"outcome" text,
	"error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "holding_reply_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "approval_chat_requests" ADD CONSTRAINT "approval_chat_requests_approval_id_approvals_id_fk" FOREIGN KEY ("approval_id") REFERENCES "public"."approvals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_chat_requests_notification_channel_idx" ON "approval_chat_requests" USING btree ("notification_id","channel");--> statement-breakpoint
CREATE INDEX "approval_chat_requests_approval_id_idx" ON "approval_chat_requests" USING btree ("approval_id");--> statement-breakpoint
CREATE INDEX "approval_chat_requests_user_channel_idx" ON "approval_chat_requests" USING btree ("user_id","channel","status");--> statement-breakpoint
CREATE INDEX "approval_chat_requests_open_idx" ON "approval_chat_requests" USING btree ("status") WHERE "approval_chat_requests"."status" in ('queued', 'sending', 'held') or ("approval_chat_requests"."status" = 'sent' and "approval_chat_requests"."outcome" is null);--> statement-breakpoint
CREATE INDEX "channel_inbox_sender_received_idx" ON "channel_inbox" USING btree ("queue","sender","received_at");