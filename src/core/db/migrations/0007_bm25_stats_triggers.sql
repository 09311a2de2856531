-- BM25 statistics of the keyword leg (modules/rag/bm25.ts): kb_term_stats (document frequency per
-- knowledge base and term) and kb_stats (indexed chunks and their words per knowledge base) follow
-- every write of chunks.terms, whatever the path (ingestion, reprocessing, a document or knowledge
-- base deleted through a cascade, the backfill), in the same transaction. Chunks without terms
-- (not yet indexed) are not counted.
CREATE FUNCTION keyword_stats_shift(sign integer, kb_ids uuid[], term_sets tsvector[], term_counts integer[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- One writer per knowledge base at a time, in a fixed order: concurrent ingestions would
  -- otherwise lock the same term rows in different orders and deadlock.
  PERFORM pg_advisory_xact_lock(hashtextextended('kb_term_stats:' || k.kb::text, 0))
    FROM (SELECT DISTINCT kb FROM unnest(kb_ids) AS kb ORDER BY 1) AS k;
  IF sign > 0 THEN
    INSERT INTO kb_term_stats AS s (knowledge_base_id, term, df)
      SELECT r.kb, t.lexeme, count(*)
      FROM unnest(kb_ids, term_sets) AS r(kb, terms), unnest(r.terms) AS t
      WHERE r.terms IS NOT NULL
      GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (knowledge_base_id, term) DO UPDATE SET df = s.df + excluded.df;
    INSERT INTO kb_stats AS s (knowledge_base_id, chunk_count, total_terms)
      SELECT r.kb, count(*), sum(r.len)
      FROM unnest(kb_ids, term_sets, term_counts) AS r(kb, terms, len)
      WHERE r.terms IS NOT NULL
      GROUP BY 1 ORDER BY 1
    ON CONFLICT (knowledge_base_id) DO UPDATE
      SET chunk_count = s.chunk_count + excluded.chunk_count, total_terms = s.total_terms + excluded.total_terms;
  ELSE
    WITH removed AS (
      SELECT r.kb, t.lexeme AS term, count(*) AS df
      FROM unnest(kb_ids, term_sets) AS r(kb, terms), unnest(r.terms) AS t
      WHERE r.terms IS NOT NULL
      GROUP BY 1, 2
    ), gone AS (
      DELETE FROM kb_term_stats s USING removed
      WHERE s.knowledge_base_id = removed.kb AND s.term = removed.term AND s.df <= removed.df
    )
    UPDATE kb_term_stats s SET df = s.df - removed.df FROM removed
    WHERE s.knowledge_base_id = removed.kb AND s.term = removed.term AND s.df > removed.df;
    UPDATE kb_stats s SET chunk_count = s.chunk_count - r.n, total_terms = s.total_terms - r.len
    FROM (
      SELECT r.kb, count(*) AS n, sum(r.len) AS len
      FROM unnest(kb_ids, term_sets, term_counts) AS r(kb, terms, len)
      WHERE r.terms IS NOT NULL
      GROUP BY 1
    ) AS r
    WHERE s.knowledge_base_id = r.kb;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION chunks_keyword_stats_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_stats_shift(1, array_agg(knowledge_base_id), array_agg(terms), array_agg(term_count))
    FROM new_rows WHERE terms IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION chunks_keyword_stats_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_stats_shift(-1, array_agg(knowledge_base_id), array_agg(terms), array_agg(term_count))
    FROM old_rows WHERE terms IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION chunks_keyword_stats_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_stats_shift(-1, array_agg(o.knowledge_base_id), array_agg(o.terms), array_agg(o.term_count))
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.terms IS NOT NULL AND (o.terms IS DISTINCT FROM n.terms OR o.term_count <> n.term_count
      OR o.knowledge_base_id <> n.knowledge_base_id)
    HAVING count(*) > 0;
  PERFORM keyword_stats_shift(1, array_agg(n.knowledge_base_id), array_agg(n.terms), array_agg(n.term_count))
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE n.terms IS NOT NULL AND (o.terms IS DISTINCT FROM n.terms OR o.term_count <> n.term_count
      OR o.knowledge_base_id <> n.knowledge_base_id)
    HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER chunks_keyword_stats_insert AFTER INSERT ON chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chunks_keyword_stats_inserted();
--> statement-breakpoint
CREATE TRIGGER chunks_keyword_stats_delete AFTER DELETE ON chunks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION chunks_keyword_stats_deleted();
--> statement-breakpoint
CREATE TRIGGER chunks_keyword_stats_update AFTER UPDATE ON chunks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION chunks_keyword_stats_updated();
