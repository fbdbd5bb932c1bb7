-- Admin lists at 1,000 employers and 1,000,000 employees (docs/decisions/admin-list-queries.md).
-- Indexes drizzle cannot express, and the triggers that keep company_stats and users.enrolled_at exact.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
-- One employer's employees in list order; INCLUDE lets the page and the status filters run index-only.
CREATE INDEX "users_company_sort_idx" ON "users" ("company_id", lower("last_name"), lower("first_name"), "id")
  INCLUDE ("last_name", "first_name", "email_verified_at", "enrolled_at");
--> statement-breakpoint
-- Substring search within one employer: company equality and trigrams meet inside one GIN scan.
-- The text is "first last\nemail\nprogrammeId"; search terms may not contain a line break.
CREATE INDEX "users_company_search_idx" ON "users" USING gin (
  "company_id",
  ("first_name" || ' ' || "last_name" || E'\n' || "email" || E'\n' || "lhmp_id") gin_trgm_ops
);
--> statement-breakpoint
UPDATE "users" u SET "enrolled_at" = p."enrolled_at" FROM "participants" p WHERE p."user_id" = u."id";
--> statement-breakpoint
INSERT INTO "company_stats" ("company_id", "employees", "verified_employees", "participants", "family_members", "last_activity_at")
SELECT c."id",
       coalesce(e."employees", 0), coalesce(e."verified", 0),
       coalesce(p."participants", 0), coalesce(p."family", 0), p."last_activity"
FROM "companies" c
LEFT JOIN (
  SELECT "company_id", count(*) AS "employees", count("email_verified_at") AS "verified"
  FROM "users" GROUP BY "company_id"
) e ON e."company_id" = c."id"
LEFT JOIN (
  SELECT u."company_id", count(*) AS "participants", sum(pa."family_member_count") AS "family", max(pa."last_login_at") AS "last_activity"
  FROM "participants" pa JOIN "users" u ON u."id" = pa."user_id" GROUP BY u."company_id"
) p ON p."company_id" = c."id";
--> statement-breakpoint
CREATE FUNCTION "company_stats_on_company_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_stats (company_id) SELECT id FROM new_rows ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "company_stats_on_company_insert" AFTER INSERT ON "companies"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_stats_on_company_insert"();
--> statement-breakpoint
CREATE FUNCTION "company_stats_on_user_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO company_stats AS s (company_id, employees, verified_employees)
  SELECT company_id, count(*), count(email_verified_at) FROM new_rows GROUP BY company_id
  ON CONFLICT (company_id) DO UPDATE
    SET employees = s.employees + excluded.employees,
        verified_employees = s.verified_employees + excluded.verified_employees;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "company_stats_on_user_insert" AFTER INSERT ON "users"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_stats_on_user_insert"();
--> statement-breakpoint
CREATE FUNCTION "company_stats_on_user_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    SELECT company_id, -count(*) AS e, -count(email_verified_at) AS v FROM old_rows GROUP BY company_id
    UNION ALL
    SELECT company_id, count(*), count(email_verified_at) FROM new_rows GROUP BY company_id
  ), t AS (
    SELECT company_id, sum(e) AS e, sum(v) AS v FROM d GROUP BY company_id HAVING sum(e) <> 0 OR sum(v) <> 0
  )
  UPDATE company_stats s SET employees = s.employees + t.e, verified_employees = s.verified_employees + t.v
  FROM t WHERE s.company_id = t.company_id;
  -- A user who changes employer takes their participation with them.
  WITH moved AS (
    SELECT o.company_id AS from_id, n.company_id AS to_id, p.family_member_count, p.last_login_at
    FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN participants p ON p.user_id = n.id
    WHERE o.company_id <> n.company_id
  ), d AS (
    SELECT from_id AS company_id, -count(*) AS c, -sum(family_member_count) AS f, NULL::timestamptz AS l FROM moved GROUP BY from_id
    UNION ALL
    SELECT to_id, count(*), sum(family_member_count), max(last_login_at) FROM moved GROUP BY to_id
  ), t AS (
    SELECT company_id, sum(c) AS c, sum(f) AS f, max(l) AS l FROM d GROUP BY company_id
  )
  UPDATE company_stats s
    SET participants = s.participants + t.c, family_members = s.family_members + t.f,
        last_activity_at = greatest(s.last_activity_at, t.l)
  FROM t WHERE s.company_id = t.company_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "company_stats_on_user_update" AFTER UPDATE ON "users"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_stats_on_user_update"();
--> statement-breakpoint
-- Row level and BEFORE: once the user row is gone, the cascaded participant rows can no longer be tied to an employer.
CREATE FUNCTION "company_stats_on_user_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE company_stats s
    SET employees = s.employees - 1,
        verified_employees = s.verified_employees - (OLD.email_verified_at IS NOT NULL)::int,
        participants = s.participants - (SELECT count(*) FROM participants p WHERE p.user_id = OLD.id),
        family_members = s.family_members - coalesce((SELECT sum(p.family_member_count) FROM participants p WHERE p.user_id = OLD.id), 0)
  WHERE s.company_id = OLD.company_id;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER "company_stats_on_user_delete" BEFORE DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "company_stats_on_user_delete"();
--> statement-breakpoint
CREATE FUNCTION "company_stats_on_participant_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u SET enrolled_at = n.enrolled_at
  FROM new_rows n WHERE u.id = n.user_id AND u.enrolled_at IS DISTINCT FROM n.enrolled_at;
  INSERT INTO company_stats AS s (company_id, participants, family_members, last_activity_at)
  SELECT u.company_id, count(*), sum(n.family_member_count), max(n.last_login_at)
  FROM new_rows n JOIN users u ON u.id = n.user_id GROUP BY u.company_id
  ON CONFLICT (company_id) DO UPDATE
    SET participants = s.participants + excluded.participants,
        family_members = s.family_members + excluded.family_members,
        last_activity_at = greatest(s.last_activity_at, excluded.last_activity_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "company_stats_on_participant_insert" AFTER INSERT ON "participants"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_stats_on_participant_insert"();
--> statement-breakpoint
CREATE FUNCTION "company_stats_on_participant_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users u SET enrolled_at = n.enrolled_at
  FROM new_rows n WHERE u.id = n.user_id AND u.enrolled_at IS DISTINCT FROM n.enrolled_at;
  WITH t AS (
    SELECT u.company_id, sum(n.family_member_count - o.family_member_count) AS f, max(n.last_login_at) AS l
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN users u ON u.id = n.user_id
    GROUP BY u.company_id
  )
  UPDATE company_stats s
    SET family_members = s.family_members + t.f, last_activity_at = greatest(s.last_activity_at, t.l)
  FROM t
  WHERE s.company_id = t.company_id
    AND (t.f <> 0 OR (t.l IS NOT NULL AND (s.last_activity_at IS NULL OR t.l > s.last_activity_at)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "company_stats_on_participant_update" AFTER UPDATE ON "participants"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_stats_on_participant_update"();
--> statement-breakpoint
CREATE FUNCTION "company_stats_on_participant_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Rows whose user is already gone were counted off by company_stats_on_user_delete.
  UPDATE users u SET enrolled_at = NULL
  FROM old_rows o WHERE u.id = o.user_id AND NOT EXISTS (SELECT 1 FROM participants p WHERE p.user_id = u.id);
  WITH t AS (
    SELECT u.company_id, count(*) AS c, sum(o.family_member_count) AS f
    FROM old_rows o JOIN users u ON u.id = o.user_id GROUP BY u.company_id
  )
  UPDATE company_stats s SET participants = s.participants - t.c, family_members = s.family_members - t.f
  FROM t WHERE s.company_id = t.company_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "company_stats_on_participant_delete" AFTER DELETE ON "participants"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "company_stats_on_participant_delete"();
