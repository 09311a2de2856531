ALTER TABLE "document_generations" ADD COLUMN "template_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "document_generations" ADD COLUMN "size_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "document_generations_department_id_idx" ON "document_generations" USING btree ("department_id");--> statement-breakpoint
CREATE INDEX "document_templates_namespace_id_idx" ON "document_templates" USING btree ("namespace_id");