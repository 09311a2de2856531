CREATE TABLE "channel_inbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "channel_inbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"queue" text NOT NULL,
	"job_id" text NOT NULL,
	"job_name" text NOT NULL,
	"sender" text,
	"platform_order" bigint,
	"payload" jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"taken_at" timestamp with time zone,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "channel_inbox_queue_job_id_idx" ON "channel_inbox" USING btree ("queue","job_id");--> statement-breakpoint
CREATE INDEX "channel_inbox_unsettled_idx" ON "channel_inbox" USING btree ("received_at") WHERE "channel_inbox"."settled_at" is null;--> statement-breakpoint
CREATE INDEX "channel_inbox_sender_idx" ON "channel_inbox" USING btree ("queue","sender","platform_order","seq") WHERE "channel_inbox"."taken_at" is null;--> statement-breakpoint
CREATE INDEX "channel_inbox_settled_idx" ON "channel_inbox" USING btree ("settled_at") WHERE "channel_inbox"."settled_at" is not null;