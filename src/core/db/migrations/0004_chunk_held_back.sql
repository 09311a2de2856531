ALTER TABLE "chunks" ADD COLUMN "held_back" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "injection" jsonb;