CREATE TABLE "kb_stats" (
	"knowledge_base_id" uuid PRIMARY KEY NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"total_terms" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kb_term_stats" (
	"knowledge_base_id" uuid NOT NULL,
	"term" text NOT NULL,
	"df" integer NOT NULL,
	CONSTRAINT "kb_term_stats_knowledge_base_id_term_pk" PRIMARY KEY("knowledge_base_id","term")
);
--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "terms" "tsvector";--> statement-breakpoint
ALTER TABLE "chunks" ADD COLUMN "term_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "kb_stats" ADD CONSTRAINT "kb_stats_knowledge_base_id_knowledge_bases_id_fk" FOREIGN KEY ("knowledge_base_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kb_term_stats" ADD CONSTRAINT "kb_term_stats_knowledge_base_id_knowledge_bases_id_fk" FOREIGN KEY ("knowledge_base_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chunks_terms_idx" ON "chunks" USING gin ("terms") WITH (fastupdate=false);