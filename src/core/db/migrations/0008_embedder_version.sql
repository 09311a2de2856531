ALTER TABLE "intent_examples" ADD COLUMN "embedder" text;--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "embedder" text;