ALTER TABLE "kb_stats" ADD COLUMN "version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- kb_stats.version: a process keeps an in-memory keyword index per knowledge base (modules/rag/
-- keyword-index.ts) and reloads it when this changes. Every write of a base's keyword-indexed chunks
-- (insert, delete, terms, term_count or held_back changed), whatever the path, sets it to the next
-- value of one sequence, so a version is never seen twice, even for a re-created row.
CREATE SEQUENCE "kb_keyword_version";
--> statement-breakpoint
UPDATE "kb_stats" SET "version" = nextval('kb_keyword_version');
--> statement-breakpoint
CREATE FUNCTION keyword_version_bump(kb_ids uuid[], upsert boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- The same per-base lock as keyword_stats_shift, taken first in the same order: the two functions
  -- write the same kb_stats rows and must not wait for each other in opposite orders.
  PERFORM pg_advisory_xact_lock(hashtextextended('kb_term_stats:' || k.kb::text, 0))
    FROM (SELECT DISTINCT kb FROM unnest(kb_ids) AS kb ORDER BY 1) AS k;
  IF upsert THEN
    INSERT INTO kb_stats AS s (knowledge_base_id, version)
      SELECT k.kb, nextval('kb_keyword_version')
      FROM (SELECT DISTINCT kb FROM unnest(kb_ids) AS kb ORDER BY 1) AS k
    ON CONFLICT (knowledge_base_id) DO UPDATE SET version = excluded.version;
  ELSE
    -- Deletes only update: under a knowledge base's cascade its kb_stats row may be gone already.
    UPDATE kb_stats SET version = nextval('kb_keyword_version') WHERE knowledge_base_id = ANY(kb_ids);
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION chunks_keyword_version_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_version_bump(array_agg(knowledge_base_id), true)
    FROM new_rows WHERE terms IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION chunks_keyword_version_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_version_bump(array_agg(knowledge_base_id), false)
    FROM old_rows WHERE terms IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION chunks_keyword_version_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_version_bump(array_agg(kb), true)
    FROM (
      SELECT unnest(ARRAY[o.knowledge_base_id, n.knowledge_base_id]) AS kb
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.terms IS DISTINCT FROM n.terms OR o.term_count <> n.term_count
        OR o.held_back <> n.held_back OR o.knowledge_base_id <> n.knowledge_base_id
    ) AS changed
    HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Named after chunks_keyword_stats_*: triggers of one event fire in name order, so the statistics
-- are written first and create the kb_stats row this updates.
CREATE TRIGGER chunks_keyword_version_insert AFTER INSERT ON chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chunks_keyword_version_inserted();
--> statement-breakpoint
CREATE TRIGGER chunks_keyword_version_delete AFTER DELETE ON chunks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chunks_keyword_version_deleted();
--> statement-breakpoint
CREATE TRIGGER chunks_keyword_version_update AFTER UPDATE ON chunks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chunks_keyword_version_updated();
