CREATE TABLE "reply_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"rating" text NOT NULL,
	"comment" text,
	"channel" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reply_feedback_rating_check" CHECK ("reply_feedback"."rating" in ('up', 'down'))
);
--> statement-breakpoint
CREATE TABLE "trust_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"namespace_id" uuid NOT NULL,
	"intent_name" text NOT NULL,
	"kind" text NOT NULL,
	"approval_id" uuid,
	"message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trust_events_kind_check" CHECK ("trust_events"."kind" in ('clean', 'edit', 'reject', 'not_counted', 'down'))
);
--> statement-breakpoint
CREATE TABLE "learning_suggestions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"namespace_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"intent_name" text,
	"question" text NOT NULL,
	"normalized_question" text NOT NULL,
	"answer" text,
	"embedding" jsonb,
	"embedder" text,
	"count" integer DEFAULT 1 NOT NULL,
	"approval_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"knowledge_base_id" uuid,
	"document_id" uuid,
	"decided_by_id" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learning_suggestions_type_check" CHECK ("learning_suggestions"."type" in ('example', 'answer')),
	CONSTRAINT "learning_suggestions_status_check" CHECK ("learning_suggestions"."status" in ('open', 'accepted', 'dismissed'))
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "trust_counted" boolean;--> statement-breakpoint
ALTER TABLE "approvals" ADD COLUMN "trust_reason" text;--> statement-breakpoint
ALTER TABLE "reply_feedback" ADD CONSTRAINT "reply_feedback_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_feedback" ADD CONSTRAINT "reply_feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trust_events" ADD CONSTRAINT "trust_events_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_suggestions" ADD CONSTRAINT "learning_suggestions_namespace_id_namespaces_id_fk" FOREIGN KEY ("namespace_id") REFERENCES "public"."namespaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_suggestions" ADD CONSTRAINT "learning_suggestions_knowledge_base_id_knowledge_bases_id_fk" FOREIGN KEY ("knowledge_base_id") REFERENCES "public"."knowledge_bases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learning_suggestions" ADD CONSTRAINT "learning_suggestions_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reply_feedback_message_id_user_id_idx" ON "reply_feedback" USING btree ("message_id","user_id");--> statement-breakpoint
CREATE INDEX "reply_feedback_created_at_idx" ON "reply_feedback" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "trust_events_namespace_id_intent_name_created_at_idx" ON "trust_events" USING btree ("namespace_id","intent_name","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trust_events_down_message_id_idx" ON "trust_events" USING btree ("message_id") WHERE "trust_events"."kind" = 'down';--> statement-breakpoint
CREATE INDEX "learning_suggestions_namespace_id_type_status_idx" ON "learning_suggestions" USING btree ("namespace_id","type","status","created_at");--> statement-breakpoint
-- Recount every intent's trust from its decided approvals under the grounded rule (docs/approvals.md):
-- a plain approval counts only when the draft had a source at or above the confidence line (0.7) and is
-- neither a no-answer fallback nor the injection refusal; edits and rejections are counted decisions.
UPDATE "approvals" SET
	"trust_counted" = CASE
		WHEN "intent" IS NULL OR "intent" = 'unknown' THEN false
		WHEN "status" <> 'approved' THEN true
		ELSE jsonb_array_length("sources") > 0 AND "confidence" >= 0.7 AND "original_content" NOT IN (
			'I could not find an answer to this in the knowledge base. A colleague will follow up.',
			'I could not find a good answer to this in the knowledge base: the closest passages do not answer it.',
			'Я не нашёл ответа на этот вопрос в базе знаний. Коллега свяжется с вами.',
			'Я не нашёл в базе знаний хорошего ответа на этот вопрос: ближайшие фрагменты на него не отвечают.',
			'Я не знайшов відповіді на це питання в базі знань. Колега зв’яжеться з вами.',
			'Я не знайшов у базі знань доброї відповіді на це питання: найближчі фрагменти на нього не відповідають.',
			'I cannot help with this request: it tries to change or reveal my instructions. A colleague will review it.',
			'Я не могу выполнить этот запрос: он пытается изменить или раскрыть мои инструкции. Коллега рассмотрит его.',
			'Я не можу виконати цей запит: він намагається змінити або розкрити мої інструкції. Колега його розгляне.'
		)
	END
WHERE "status" IN ('approved', 'edited', 'rejected') AND "trust_counted" IS NULL;--> statement-breakpoint
UPDATE "approvals" SET "trust_reason" = CASE
		WHEN "intent" IS NULL OR "intent" = 'unknown' THEN 'unknown_intent'
		ELSE 'no_grounded_answer'
	END
WHERE "trust_counted" = false AND "trust_reason" IS NULL;--> statement-breakpoint
INSERT INTO "trust_events" ("namespace_id", "intent_name", "kind", "approval_id", "created_at")
SELECT "namespace_id", "intent",
	CASE
		WHEN "status" = 'approved' AND "trust_counted" THEN 'clean'
		WHEN "status" = 'approved' THEN 'not_counted'
		WHEN "status" = 'edited' THEN 'edit'
		ELSE 'reject'
	END,
	"id", coalesce("decided_at", "updated_at")
FROM "approvals" a
WHERE "status" IN ('approved', 'edited', 'rejected') AND "namespace_id" IS NOT NULL
	AND "intent" IS NOT NULL AND "intent" <> 'unknown'
	AND NOT EXISTS (SELECT 1 FROM "trust_events" e WHERE e."approval_id" = a."id");--> statement-breakpoint
CREATE TEMPORARY TABLE "trust_recount" AS
SELECT t."id", t."namespace_id", t."intent_name", t."threshold", t."successful_count" AS "before",
	-- Never above the old count: a count an earlier demotion reset stays reset.
	least(t."successful_count", c."clean") AS "clean", c."not_counted",
	t."is_autonomous" AND t."successful_count" >= t."threshold"
		AND least(t."successful_count", c."clean") < t."threshold" AND c."not_counted" > 0 AS "demoted"
FROM "intent_trust" t
JOIN (
	SELECT "namespace_id", "intent_name",
		count(*) FILTER (WHERE "kind" = 'clean')::integer AS "clean",
		count(*) FILTER (WHERE "kind" = 'not_counted')::integer AS "not_counted"
	FROM "trust_events" GROUP BY 1, 2
) c ON c."namespace_id" = t."namespace_id" AND c."intent_name" = t."intent_name";--> statement-breakpoint
UPDATE "intent_trust" t SET
	"successful_count" = r."clean",
	"is_autonomous" = t."is_autonomous" AND NOT r."demoted",
	"updated_at" = now()
FROM "trust_recount" r WHERE r."id" = t."id" AND (r."clean" <> r."before" OR r."demoted");--> statement-breakpoint
INSERT INTO "audit_logs" ("user_id", "action", "entity_type", "entity_id", "changes")
SELECT NULL, 'demote', 'intents', r."id"::text, jsonb_build_object(
	'namespaceId', r."namespace_id", 'intent', r."intent_name", 'reason', 'recount_grounded_approvals',
	'successfulCountBefore', r."before", 'cleanApprovals', r."clean", 'notCounted', r."not_counted",
	'threshold', r."threshold")
FROM "trust_recount" r WHERE r."demoted";--> statement-breakpoint
INSERT INTO "notifications" ("user_id", "type", "title", "body", "entity_type", "entity_id")
SELECT u."id", 'system',
	CASE u."language"
		WHEN 'uk' THEN 'Намір «' || r."intent_name" || '» більше не автономний'
		WHEN 'ru' THEN 'Намерение «' || r."intent_name" || '» больше не автономно'
		ELSE 'Intent "' || r."intent_name" || '" is no longer autonomous'
	END,
	CASE u."language"
		WHEN 'uk' THEN 'Довіру перераховано: схвалення відповідей без знайденого в базі знань джерела більше не враховуються. Враховано ' || r."clean" || ' з ' || r."threshold" || '; відповіді цього наміру знову перевіряє людина.'
		WHEN 'ru' THEN 'Доверие пересчитано: одобрения ответов без найденного в базе знаний источника больше не учитываются. Учтено ' || r."clean" || ' из ' || r."threshold" || '; ответы этого намерения снова проверяет человек.'
		ELSE 'Trust was recounted: approvals of drafts without a grounded source no longer count. ' || r."clean" || ' of ' || r."threshold" || ' approvals count; every reply of this intent goes to a human again.'
	END,
	'intents', r."id"::text
FROM "trust_recount" r
JOIN "namespaces" n ON n."id" = r."namespace_id"
JOIN "users" u ON u."role" = 'dept_head' AND u."is_active"
	AND (u."department_id" = n."department_id" OR n."department_id"::text = ANY(coalesce(u."extra_department_ids", '{}')))
	AND NOT (n."department_id"::text = ANY(coalesce(u."revoked_department_ids", '{}')))
WHERE r."demoted";--> statement-breakpoint
DROP TABLE "trust_recount";
