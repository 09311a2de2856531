-- kb_stats.version also moves when a chunk with an embedding comes or goes, and when a chunk's
-- embedding changes (re-embedding writes vectors in place): a process's in-memory vector index
-- (modules/rag/vector-index.ts) is current with a version, like the keyword index, and must see
-- such a change as one.
CREATE OR REPLACE FUNCTION chunks_keyword_version_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_version_bump(array_agg(knowledge_base_id), true)
    FROM new_rows WHERE terms IS NOT NULL OR embedding IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chunks_keyword_version_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_version_bump(array_agg(knowledge_base_id), false)
    FROM old_rows WHERE terms IS NOT NULL OR embedding IS NOT NULL HAVING count(*) > 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION chunks_keyword_version_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keyword_version_bump(array_agg(kb), true)
    FROM (
      SELECT unnest(ARRAY[o.knowledge_base_id, n.knowledge_base_id]) AS kb
      FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE o.terms IS DISTINCT FROM n.terms OR o.term_count <> n.term_count
        OR o.held_back <> n.held_back OR o.knowledge_base_id <> n.knowledge_base_id
        OR o.embedding IS DISTINCT FROM n.embedding
    ) AS changed
    HAVING count(*) > 0;
  RETURN NULL;
END $$;
