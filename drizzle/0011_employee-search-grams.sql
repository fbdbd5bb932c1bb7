-- Employee search by characters and character pairs (docs/decisions/admin-search-short-terms.md).
-- A term without a trigram ("zh", "q", "j s") cannot be narrowed by pg_trgm; a text can only
-- contain such a term if it holds the term's character (a one-character term) or every pair of
-- adjacent characters the term holds, and this index finds those texts within one employer. The
-- ILIKE of the search still decides every match.
--
-- employee_search_grams lists the lower-cased text's characters, its pairs at even offsets, then
-- those at odd ones (a list of pairs may end with one character or an empty string, both harmless
-- here). It is one expression of built-in functions, so it costs a few microseconds a row where a
-- loop in PL/pgSQL cost three times that.
CREATE OR REPLACE FUNCTION "employee_search_grams"("t" text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN string_to_array(lower("t"), NULL)
    || string_to_array(regexp_replace(lower("t"), '(..)', E'\\1\x01', 'g'), E'\x01')
    || string_to_array(regexp_replace(substr(lower("t"), 2), '(..)', E'\\1\x01', 'g'), E'\x01');
--> statement-breakpoint
-- The same text as users_company_text_search_idx (0004), keyed on the company id as text (which no
-- btree index offers) like it. On an installation with data: create the function above by hand,
-- then build this index CONCURRENTLY, before the deploy (schema-changes-at-scale.md, "Migration
-- 0011"). The function is never changed in place: the index would keep the old grams.
CREATE INDEX IF NOT EXISTS "users_company_search_grams_idx" ON "users" USING gin (
  ("company_id"::text),
  "employee_search_grams"("first_name" || ' ' || "last_name" || E'\n' || "email" || E'\n' || "lhmp_id")
);
