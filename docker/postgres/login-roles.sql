-- The login roles the apps connect as, one in each group role of the DatabaseRoles and AlertsRole
-- migrations (docs/deploying.md, "PostgreSQL roles"). Run it as the owner or a superuser once the
-- migrations have run, with the four passwords as psql variables; it may run again (a role that
-- exists gets the password given):
--   psql "$OWNER_DATABASE_URL" -v ON_ERROR_STOP=1 -v gateway_password=… -v reader_password=… \
--     -v importer_password=… -v v1_password=… -f docker/postgres/login-roles.sql
-- Then: GATEWAY_DATABASE_URL=postgres://tcg_gw:…@host/tcg, SERVICES_DATABASE_URL=postgres://tcg_api:…
-- (api-v2), API_V1_DATABASE_URL=postgres://tcg_v1:… and the importer's
-- DATABASE_URL=postgres://tcg_import:…; the migrations and the key CLI keep the owner's.
SELECT format('CREATE ROLE %I LOGIN IN ROLE %I', login, grp)
FROM (VALUES ('tcg_gw', 'tcg_gateway'), ('tcg_api', 'tcg_reader'), ('tcg_import', 'tcg_importer'),
             ('tcg_v1', 'tcg_api_v1')) AS r (login, grp)
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = login)
\gexec
SELECT format('ALTER ROLE %I PASSWORD %L', login, password)
FROM (VALUES ('tcg_gw', :'gateway_password'), ('tcg_api', :'reader_password'),
             ('tcg_import', :'importer_password'), ('tcg_v1', :'v1_password')) AS r (login, password)
\gexec
