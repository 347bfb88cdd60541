-- One portal user per email. A database that already holds two users with one email (the demo accounts
-- seeded again under new uids after the Auth emulator lost its accounts) cannot take the index: the
-- migration stops, names them and says what to do, and nothing is changed or deleted on its own.
DO $$
DECLARE
  duplicates text;
BEGIN
  SELECT string_agg(format('%s (uids %s)', email, uids), '; ') INTO duplicates
  FROM (
    SELECT lower(email) AS email, string_agg(uid, ', ' ORDER BY created_at, uid) AS uids
    FROM users WHERE email <> '' GROUP BY lower(email) HAVING count(*) > 1 ORDER BY lower(email) LIMIT 20
  ) AS taken;
  IF duplicates IS NOT NULL THEN
    RAISE EXCEPTION 'users.email must be unique, and these emails belong to more than one user: %', duplicates
      USING HINT = 'Keep the user whose uid the identity provider has for that email and remove or rename the others (UPDATE users SET email = ... WHERE uid = ...), then start again. A local demo database can instead be started afresh with an empty DATA_DIR.';
  END IF;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email")) WHERE email <> '';
