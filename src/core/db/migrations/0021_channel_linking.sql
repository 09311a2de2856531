CREATE TABLE "channel_link_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_link_codes_code_hash_unique" UNIQUE("code_hash")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_placeholder" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "channel_link_codes" ADD CONSTRAINT "channel_link_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "channel_link_codes_user_id_channel_idx" ON "channel_link_codes" USING btree ("user_id","channel");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_identities_user_id_channel_idx" ON "channel_identities" USING btree ("user_id","channel");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_check" CHECK ("users"."language" in ('en', 'uk', 'ru'));--> statement-breakpoint
-- Users created from a channel until now: the placeholder email domain and no usable password.
UPDATE "users" SET "is_placeholder" = true WHERE "email" LIKE '%@channel.invalid' AND "password_hash" IS NULL;--> statement-breakpoint
-- Channel A senders matched by phone so far get an identity record, as their next message would write it.
INSERT INTO "channel_identities" ("channel", "channel_user_id", "user_id")
  SELECT 'chanA', "phone", "id" FROM "users" WHERE "is_placeholder" AND "phone" IS NOT NULL
  ON CONFLICT DO NOTHING;
