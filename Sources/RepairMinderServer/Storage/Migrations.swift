import Foundation
import Logging
import SQLKit

/// The schema, as numbered steps applied once each and recorded in `schema_migrations`.
///
/// Never edit a step that has shipped: add a new one. The same statements run on SQLite and
/// PostgreSQL. Times are seconds since 1970 in `DOUBLE PRECISION` columns (steps 1-4 said
/// `REAL`, which SQLite stores identically, but which is single precision on PostgreSQL);
/// booleans are 0/1 `INTEGER`s.
public enum Migrations {
    struct Step: Sendable {
        let version: Int
        let name: String
        let statements: [String]
        /// Run after `statements` on PostgreSQL only: what SQLite has no words for.
        var postgresStatements: [String] = []
    }

    static let steps: [Step] = [
        Step(version: 1, name: "accounts", statements: [
            """
            CREATE TABLE companies (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL UNIQUE,
                status TEXT NOT NULL DEFAULT 'active',
                currency_code TEXT,
                vat_number TEXT,
                logo_url TEXT,
                vat_rate_repair TEXT,
                vat_rate_device_sale TEXT,
                vat_rate_accessory TEXT,
                vat_rate_device_purchase TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                first_name TEXT,
                last_name TEXT,
                company_id TEXT NOT NULL REFERENCES companies(id),
                role TEXT NOT NULL,
                phi_access_level TEXT,
                data_classification TEXT,
                is_active INTEGER NOT NULL DEFAULT 1,
                archived INTEGER NOT NULL DEFAULT 0,
                magic_link_enabled INTEGER NOT NULL DEFAULT 1,
                password_hash TEXT,
                last_login DOUBLE PRECISION,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE clients (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL,
                first_name TEXT,
                last_name TEXT,
                company_id TEXT NOT NULL REFERENCES companies(id),
                created_at DOUBLE PRECISION NOT NULL,
                UNIQUE (email, company_id)
            )
            """,
        ]),
        Step(version: 2, name: "staff sessions and codes", statements: [
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                is_mobile INTEGER NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                revoked_at DOUBLE PRECISION,
                revoked_reason TEXT
            )
            """,
            "CREATE INDEX sessions_user ON sessions(user_id)",
            """
            CREATE TABLE refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions(id),
                issued_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                rotated_at DOUBLE PRECISION,
                successor_hash TEXT
            )
            """,
            "CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id)",
            """
            CREATE TABLE login_challenges (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                email TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                closed_at DOUBLE PRECISION,
                failed_attempts INTEGER NOT NULL DEFAULT 0,
                code_hash TEXT,
                code_expires_at DOUBLE PRECISION,
                last_code_sent_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX login_challenges_user ON login_challenges(user_id, closed_at)",
            """
            CREATE TABLE magic_codes (
                id TEXT PRIMARY KEY,
                purpose TEXT NOT NULL,
                email TEXT NOT NULL,
                code_hash TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                used_at DOUBLE PRECISION,
                failed_attempts INTEGER NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX magic_codes_email ON magic_codes(purpose, email, used_at)",
            "CREATE TABLE code_emails (email TEXT NOT NULL, sent_at DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX code_emails_email ON code_emails(email, sent_at)",
            "CREATE TABLE login_failures (email TEXT NOT NULL, failed_at DOUBLE PRECISION NOT NULL)",
            "CREATE INDEX login_failures_email ON login_failures(email, failed_at)",
        ]),
        Step(version: 3, name: "customer sessions and push", statements: [
            // The company a customer code was requested for; NULL covers all the email's companies.
            "ALTER TABLE magic_codes ADD COLUMN company_id TEXT",
            """
            CREATE TABLE customer_sessions (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL REFERENCES clients(id),
                company_id TEXT NOT NULL REFERENCES companies(id),
                is_mobile INTEGER NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                revoked_at DOUBLE PRECISION
            )
            """,
            """
            CREATE TABLE device_tokens (
                id TEXT PRIMARY KEY,
                device_token TEXT NOT NULL UNIQUE,
                platform TEXT NOT NULL,
                app_type TEXT NOT NULL,
                owner_kind TEXT NOT NULL,
                owner_id TEXT NOT NULL,
                session_id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX device_tokens_owner ON device_tokens(owner_kind, owner_id)",
            "CREATE INDEX device_tokens_session ON device_tokens(session_id)",
            """
            CREATE TABLE push_preferences (
                user_id TEXT PRIMARY KEY REFERENCES users(id),
                enabled INTEGER NOT NULL,
                orders INTEGER NOT NULL,
                devices INTEGER NOT NULL,
                enquiries INTEGER NOT NULL,
                payments INTEGER NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
        ]),
        Step(version: 4, name: "authenticator apps", statements: [
            """
            CREATE TABLE totp_credentials (
                user_id TEXT PRIMARY KEY REFERENCES users(id),
                secret_sealed TEXT,
                pending_secret_sealed TEXT,
                enabled_at DOUBLE PRECISION,
                last_used_step INTEGER
            )
            """,
            """
            CREATE TABLE recovery_codes (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                code_hash TEXT NOT NULL,
                used_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX recovery_codes_user ON recovery_codes(user_id, code_hash)",
        ]),
        Step(version: 5, name: "limit counters", statements: [
            // Fixed-window counters for every limit (`WindowCounters`), shared by every instance;
            // they replace the per-event rows of code emails and login failures.
            """
            CREATE TABLE request_windows (
                key TEXT PRIMARY KEY,
                window_start DOUBLE PRECISION NOT NULL,
                count INTEGER NOT NULL,
                last_at DOUBLE PRECISION NOT NULL
            )
            """,
            "DROP TABLE code_emails",
            "DROP TABLE login_failures",
        ]),
        Step(version: 6, name: "mail queue", statements: [
            // The durable mail queue (`MailQueue`): bodies sealed with the encryption key.
            """
            CREATE TABLE mail_queue (
                id TEXT PRIMARY KEY,
                recipient TEXT NOT NULL,
                subject TEXT NOT NULL,
                body_sealed TEXT,
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                uncertain INTEGER NOT NULL,
                next_attempt_at DOUBLE PRECISION NOT NULL,
                claim_token TEXT,
                claimed_until DOUBLE PRECISION,
                handed_over_at DOUBLE PRECISION,
                unreachable INTEGER NOT NULL DEFAULT 0,
                last_error TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                finished_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX mail_queue_due ON mail_queue(status, next_attempt_at)",
            "CREATE INDEX mail_queue_recipient ON mail_queue(recipient, created_at)",
            "CREATE INDEX mail_queue_finished ON mail_queue(finished_at)",
        ]),
        Step(version: 7, name: "purge indexes", statements: [
            // `Purge` finds dead rows through these, a batch at a time.
            "CREATE INDEX refresh_tokens_expiry ON refresh_tokens(expires_at)",
            "CREATE INDEX sessions_revoked ON sessions(revoked_at)",
            "CREATE INDEX customer_sessions_expiry ON customer_sessions(expires_at)",
            "CREATE INDEX customer_sessions_revoked ON customer_sessions(revoked_at)",
            "CREATE INDEX login_challenges_expiry ON login_challenges(expires_at)",
            "CREATE INDEX magic_codes_expiry ON magic_codes(expires_at)",
            "CREATE INDEX request_windows_idle ON request_windows(last_at)",
        ]),
        Step(version: 8, name: "login challenge binding", statements: [
            // docs/API.md §2.3: step 1's challengeToken (hashed), and the client that took step 1.
            "ALTER TABLE login_challenges ADD COLUMN token_hash TEXT",
            "ALTER TABLE login_challenges ADD COLUMN client_ip TEXT",
            "ALTER TABLE login_challenges ADD COLUMN user_agent TEXT",
        ]),
        Step(version: 9, name: "session details", statements: [
            // docs/API.md §9.4: where each session signed in from, and when it was last used.
            "ALTER TABLE sessions ADD COLUMN user_agent TEXT",
            "ALTER TABLE sessions ADD COLUMN ip_address TEXT",
            "ALTER TABLE sessions ADD COLUMN last_used_at DOUBLE PRECISION",
        ]),
        Step(version: 10, name: "activity log", statements: [
            // docs/API.md §9.4: the security events of each staff user (`ActivityLog`).
            """
            CREATE TABLE activity_log (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                type TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                ip_address TEXT,
                user_agent TEXT,
                session_id TEXT
            )
            """,
            "CREATE INDEX activity_log_user ON activity_log(user_id, at)",
            "CREATE INDEX activity_log_at ON activity_log(at)",
        ]),
        Step(version: 11, name: "pending registrations", statements: [
            // docs/API.md §9.1: what a registration asked for, until its emailed code is verified.
            """
            CREATE TABLE pending_registrations (
                email TEXT PRIMARY KEY,
                company_name TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                password_hash TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX pending_registrations_created ON pending_registrations(created_at)",
        ]),
        Step(version: 12, name: "REKI users, sessions and reset tokens", statements: [
            // docs/API.md §10: REKI's own accounts; their sessions and refresh tokens have the
            // shape of the staff ones (`SessionRealm`), so one implementation serves both.
            """
            CREATE TABLE reki_users (
                id TEXT PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                is_active INTEGER NOT NULL DEFAULT 1,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE reki_sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES reki_users(id),
                is_mobile INTEGER NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                revoked_at DOUBLE PRECISION,
                revoked_reason TEXT,
                user_agent TEXT,
                ip_address TEXT,
                last_used_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX reki_sessions_user ON reki_sessions(user_id)",
            "CREATE INDEX reki_sessions_revoked ON reki_sessions(revoked_at)",
            """
            CREATE TABLE reki_refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES reki_sessions(id),
                issued_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                rotated_at DOUBLE PRECISION,
                successor_hash TEXT
            )
            """,
            "CREATE INDEX reki_refresh_tokens_session ON reki_refresh_tokens(session_id)",
            "CREATE INDEX reki_refresh_tokens_expiry ON reki_refresh_tokens(expires_at)",
            // The emailed reset links' tokens, by SHA-256 hash (256 random bits: no salt needed).
            """
            CREATE TABLE reki_password_resets (
                token_hash TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES reki_users(id),
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                used_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX reki_password_resets_user ON reki_password_resets(user_id)",
            "CREATE INDEX reki_password_resets_expiry ON reki_password_resets(expires_at)",
        ]),
        Step(version: 13, name: "passkeys", statements: [
            // docs/API.md §11. Binary values are stored as base64url text, alike on both engines.
            // The opaque handle a user's passkeys carry instead of anything that names them.
            """
            CREATE TABLE passkey_user_handles (
                user_id TEXT PRIMARY KEY REFERENCES users(id),
                handle TEXT NOT NULL UNIQUE
            )
            """,
            """
            CREATE TABLE passkeys (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                credential_id TEXT NOT NULL UNIQUE,
                public_key TEXT NOT NULL,
                sign_count BIGINT NOT NULL,
                backed_up INTEGER NOT NULL,
                name TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                last_used_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX passkeys_user ON passkeys(user_id)",
            // Enrolment and usernameless sign-in ceremonies, by the SHA-256 of their challenge;
            // each is used once (used_at) and lives 5 minutes.
            """
            CREATE TABLE passkey_challenges (
                id TEXT PRIMARY KEY,
                purpose TEXT NOT NULL,
                user_id TEXT,
                challenge_hash TEXT NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                used_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX passkey_challenges_expiry ON passkey_challenges(expires_at)",
            // Login step 1's passkey options, for a user with passkeys: step 3 answers them.
            "ALTER TABLE login_challenges ADD COLUMN passkey_challenge_hash TEXT",
        ]),
        Step(version: 14, name: "operator actions in the activity log", statements: [
            // An operator's change to a shop (`repairminder company approve`) belongs in the
            // same audit trail as the staff's events, but concerns a company, not a user: the
            // table is rebuilt (SQLite cannot drop NOT NULL in place) with user_id optional, the
            // company the event concerns, and who ran the command (the OS user).
            """
            CREATE TABLE activity_log_v14 (
                id TEXT PRIMARY KEY,
                user_id TEXT REFERENCES users(id),
                company_id TEXT REFERENCES companies(id),
                actor TEXT,
                type TEXT NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                ip_address TEXT,
                user_agent TEXT,
                session_id TEXT
            )
            """,
            """
            INSERT INTO activity_log_v14 (id, user_id, type, at, ip_address, user_agent, session_id)
            SELECT id, user_id, type, at, ip_address, user_agent, session_id FROM activity_log
            """,
            "DROP TABLE activity_log",
            "ALTER TABLE activity_log_v14 RENAME TO activity_log",
            "CREATE INDEX activity_log_user ON activity_log(user_id, at)",
            "CREATE INDEX activity_log_at ON activity_log(at)",
            "CREATE INDEX activity_log_company ON activity_log(company_id, at)",
        ]),
        Step(version: 15, name: "demo fixtures mark", statements: [
            // `serve --demo` loads accounts whose passwords are published; a row here says it
            // did, so `--env production` refuses the database (`DemoFixtures.areLoaded`). A
            // database that has the demo admin already was served with --demo before this mark.
            "CREATE TABLE demo_fixtures (loaded_at DOUBLE PRECISION NOT NULL)",
            "INSERT INTO demo_fixtures (loaded_at) SELECT 0 WHERE EXISTS (SELECT 1 FROM users WHERE email LIKE '%@acme.test' OR email IN ('owner@pending.test', 'owner@suspended.test'))",
        ]),
        Step(version: 16, name: "recovery codes name their hash key", statements: [
            // Which encryption key's code-hash key hashed each recovery code (`SecretHashing.keyID`):
            // after a rotation, `keys rotate-encryption` counts the users whose codes still need
            // the previous key. Codes from before this column have none: an earlier key's.
            "ALTER TABLE recovery_codes ADD COLUMN hash_key TEXT",
        ]),
        Step(version: 17, name: "the team: invitations, the acting admin of an event", statements: [
            // Invitations to join a shop (docs/API.md §12). The token is kept as its SHA-256 only;
            // `acceptable` is 0 for an address that had a staff account when invited (its mail
            // said so: such an invitation can never be accepted). One pending invitation per
            // address and shop.
            """
            CREATE TABLE invitations (
                id TEXT PRIMARY KEY,
                company_id TEXT NOT NULL REFERENCES companies(id),
                email TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                role TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE,
                acceptable INTEGER NOT NULL,
                status TEXT NOT NULL,
                invited_by TEXT REFERENCES users(id),
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                last_sent_at DOUBLE PRECISION NOT NULL,
                ended_at DOUBLE PRECISION
            )
            """,
            "CREATE UNIQUE INDEX invitations_pending ON invitations(company_id, email) WHERE status = 'pending'",
            "CREATE INDEX invitations_company ON invitations(company_id, created_at)",
            // The admin who acted on a member (`ActivityEvent.actor`), and what changed (JSON).
            "ALTER TABLE activity_log ADD COLUMN actor_user_id TEXT REFERENCES users(id)",
            "ALTER TABLE activity_log ADD COLUMN detail TEXT",
        ]),
        Step(version: 18, name: "the shop's security policy, how a session signed in", statements: [
            // The policy of docs/API.md §13, on the shop's row (read by `SecurityPolicyStore`):
            // the defaults are every shop's behaviour before policies. `required_factor_since`
            // is when a factor became required and `passkey_required_since` when a passkey did,
            // where the grace periods of its staff start; a lifetime left NULL is the server's own.
            "ALTER TABLE companies ADD COLUMN required_factor TEXT NOT NULL DEFAULT 'none'",
            "ALTER TABLE companies ADD COLUMN allow_magic_link INTEGER NOT NULL DEFAULT 1",
            "ALTER TABLE companies ADD COLUMN enrolment_grace_days INTEGER NOT NULL DEFAULT 7",
            "ALTER TABLE companies ADD COLUMN session_max_web_days INTEGER",
            "ALTER TABLE companies ADD COLUMN session_max_mobile_days INTEGER",
            "ALTER TABLE companies ADD COLUMN required_factor_since DOUBLE PRECISION",
            "ALTER TABLE companies ADD COLUMN passkey_required_since DOUBLE PRECISION",
            "ALTER TABLE companies ADD COLUMN policy_updated_at DOUBLE PRECISION",
            "ALTER TABLE companies ADD COLUMN policy_updated_by TEXT REFERENCES users(id)",
            // The RFC 8176 methods a session's sign-in used (`amr`, comma-separated), kept for
            // its refreshed tokens; NULL for sessions from before. REKI's table has the column
            // so that one refresh statement serves both realms; it stays NULL there.
            "ALTER TABLE sessions ADD COLUMN amr TEXT",
            "ALTER TABLE reki_sessions ADD COLUMN amr TEXT",
            // What stood in for the password before a login challenge's second step: a magic-link
            // code (`email`) or the password (NULL).
            "ALTER TABLE login_challenges ADD COLUMN first_factor TEXT",
        ]),
        Step(version: 19, name: "a shop's clients: their record, soft delete, search keys", statements: [
            // docs/API.md §14. The address is unique per shop among clients not deleted: a
            // deleted client's address moves to `deleted_email` (its `email` becomes
            // 'deleted:<id>'), so the table's UNIQUE (email, company_id), which no migration can
            // drop on SQLite while customer_sessions references the table, never clashes. The
            // `*_key` columns are the lowercased (ASCII, as both engines lowercase alike) forms
            // that prefix search reads by range; `phone_digits` the phone's digits only.
            "ALTER TABLE clients ADD COLUMN email_key TEXT",
            "ALTER TABLE clients ADD COLUMN first_name_key TEXT",
            "ALTER TABLE clients ADD COLUMN last_name_key TEXT",
            "ALTER TABLE clients ADD COLUMN phone TEXT",
            "ALTER TABLE clients ADD COLUMN phone_digits TEXT",
            "ALTER TABLE clients ADD COLUMN notes TEXT",
            "ALTER TABLE clients ADD COLUMN portal_enabled INTEGER NOT NULL DEFAULT 1",
            "ALTER TABLE clients ADD COLUMN last_portal_login DOUBLE PRECISION",
            "ALTER TABLE clients ADD COLUMN updated_at DOUBLE PRECISION",
            "ALTER TABLE clients ADD COLUMN deleted_at DOUBLE PRECISION",
            "ALTER TABLE clients ADD COLUMN deleted_email TEXT",
            "UPDATE clients SET email_key = lower(email), first_name_key = lower(first_name), last_name_key = lower(last_name), updated_at = created_at",
            "CREATE UNIQUE INDEX clients_live_email ON clients (company_id, email_key) WHERE deleted_at IS NULL",
            "CREATE INDEX clients_live_first ON clients (company_id, first_name_key, id) WHERE deleted_at IS NULL",
            "CREATE INDEX clients_live_last ON clients (company_id, last_name_key, id) WHERE deleted_at IS NULL",
            "CREATE INDEX clients_live_phone ON clients (company_id, phone_digits, id) WHERE deleted_at IS NULL",
            "CREATE INDEX clients_live_created ON clients (company_id, created_at, id) WHERE deleted_at IS NULL",
        ]),
        Step(version: 20, name: "clients by name and counted, a client's portal sessions", statements: [
            // docs/API.md §14: `sort=name` reads `name_key`, the lowercased display name ("first
            // last", or the address without a name), by its index. Rows from before are keyed by
            // the engine's lower(); new ones by `ClientKeys` (ASCII), as the other keys.
            "ALTER TABLE clients ADD COLUMN name_key TEXT",
            """
            UPDATE clients SET name_key = CASE
                WHEN trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) = '' THEN email_key
                ELSE lower(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))) END
            """,
            "CREATE INDEX clients_live_name ON clients (company_id, name_key, id) WHERE deleted_at IS NULL",
            // How many live clients each shop has, kept by every statement that adds or deletes
            // one (in its transaction, serialized per shop): the list's total without counting
            // 100,000 index entries a page.
            "ALTER TABLE companies ADD COLUMN client_count INTEGER NOT NULL DEFAULT 0",
            "UPDATE companies SET client_count = (SELECT COUNT(*) FROM clients WHERE clients.company_id = companies.id AND clients.deleted_at IS NULL)",
            // A shop lists and ends one client's sessions, and shows where each signed in from.
            "CREATE INDEX customer_sessions_client ON customer_sessions (client_id)",
            "ALTER TABLE customer_sessions ADD COLUMN user_agent TEXT",
            "ALTER TABLE customer_sessions ADD COLUMN ip_address TEXT",
        ], postgresStatements: [
            // Search reads the keys by range (`key >= prefix AND key < upperBound(prefix)`), which
            // holds in code-point order only: SQLite's BINARY, PostgreSQL's "C". A database made
            // with a language's collation (en_US) would order "al.i" apart from "ali"; the keys
            // get "C" whatever the database's default, and their indexes with them.
            #"ALTER TABLE clients ALTER COLUMN email_key TYPE TEXT COLLATE "C""#,
            #"ALTER TABLE clients ALTER COLUMN first_name_key TYPE TEXT COLLATE "C""#,
            #"ALTER TABLE clients ALTER COLUMN last_name_key TYPE TEXT COLLATE "C""#,
            #"ALTER TABLE clients ALTER COLUMN name_key TYPE TEXT COLLATE "C""#,
            #"ALTER TABLE clients ALTER COLUMN phone_digits TYPE TEXT COLLATE "C""#,
        ]),
        Step(version: 21, name: "failed mail deliveries", statements: [
            // docs/API.md §15.5: each failed delivery attempt, by where it failed and the reply
            // code (never the words, which may echo the address). A table of its own rather than
            // columns on `mail_queue`, which keeps only the last error: a message fails several
            // times, and the health lists attempts across messages. Written with the queue row's
            // update (`MailQueue.retry`, `markFailed`) and deleted by its time in the worker's
            // `erase`, as the queue's rows are; no foreign key, so that erasing either never waits
            // on the other. `at` is indexed for "the last hour" and "the latest 20".
            """
            CREATE TABLE mail_failures (
                mail_id TEXT NOT NULL,
                attempt INTEGER NOT NULL,
                at DOUBLE PRECISION NOT NULL,
                stage TEXT NOT NULL,
                reply_code INTEGER,
                is_final INTEGER NOT NULL,
                PRIMARY KEY (mail_id, attempt)
            )
            """,
            "CREATE INDEX mail_failures_at ON mail_failures(at)",
        ]),
        Step(version: 22, name: "web console sessions", statements: [
            // docs/API.md §15.6: a console session is a staff session (listed, revoked and
            // purged as any) that a browser holds by a cookie's token, stored as its SHA-256.
            "ALTER TABLE sessions ADD COLUMN console_token_hash TEXT",
            "CREATE UNIQUE INDEX sessions_console_token ON sessions (console_token_hash)",
        ]),
        Step(version: 23, name: "deleted staff accounts", statements: [
            // docs/API.md §9.5: a deleted account's row stays, emptied (its address becomes
            // 'deleted:<id>', so the real one can register again), because the audit log, the
            // invitations and the shop's policy refer to it by id. No list shows such a row.
            "ALTER TABLE users ADD COLUMN deleted_at DOUBLE PRECISION",
        ]),
        Step(version: 24, name: "connected apps", statements: [
            // docs/API.md §16.1: an OAuth client of a shop (`company_id`) or of the platform
            // (NULL). Lists are JSON arrays, scopes space-separated as OAuth writes them; a
            // secret is kept as its SHA-256 (256 random bits: no stretching needed), the one it
            // replaced until `previous_secret_expires_at`.
            """
            CREATE TABLE oauth_apps (
                id TEXT PRIMARY KEY,
                client_id TEXT NOT NULL UNIQUE,
                company_id TEXT REFERENCES companies(id),
                name TEXT NOT NULL,
                type TEXT NOT NULL,
                redirect_uris TEXT NOT NULL,
                post_logout_redirect_uris TEXT NOT NULL,
                scopes TEXT NOT NULL,
                first_party INTEGER NOT NULL DEFAULT 0,
                secret_hash TEXT,
                previous_secret_hash TEXT,
                previous_secret_expires_at DOUBLE PRECISION,
                created_by TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                updated_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX oauth_apps_company ON oauth_apps (company_id, created_at)",
        ]),
        Step(version: 25, name: "OpenID Connect grants", statements: [
            // docs/API.md §16: what a person allowed an app (scopes, kept until they revoke it).
            """
            CREATE TABLE oauth_consents (
                user_id TEXT NOT NULL REFERENCES users(id),
                app_id TEXT NOT NULL REFERENCES oauth_apps(id) ON DELETE CASCADE,
                scopes TEXT NOT NULL,
                granted_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (user_id, app_id)
            )
            """,
            // An authorization code: its SHA-256, used once within 60 s (`used_at` set by the
            // one statement that claims it).
            """
            CREATE TABLE oauth_codes (
                code_hash TEXT PRIMARY KEY,
                app_id TEXT NOT NULL REFERENCES oauth_apps(id) ON DELETE CASCADE,
                user_id TEXT NOT NULL REFERENCES users(id),
                redirect_uri TEXT NOT NULL,
                scope TEXT NOT NULL,
                nonce TEXT,
                code_challenge TEXT NOT NULL,
                auth_time DOUBLE PRECISION NOT NULL,
                amr TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                used_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at)",
            // The sessions a code starts (one per exchange), a realm of their own beside the
            // staff's, so that /api/auth/refresh never takes an app's refresh token; the same
            // columns, plus the app, its scope and the code it came from.
            """
            CREATE TABLE oauth_sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                app_id TEXT NOT NULL REFERENCES oauth_apps(id) ON DELETE CASCADE,
                scope TEXT NOT NULL,
                code_hash TEXT,
                auth_time DOUBLE PRECISION NOT NULL,
                is_mobile INTEGER NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                revoked_at DOUBLE PRECISION,
                revoked_reason TEXT,
                user_agent TEXT,
                ip_address TEXT,
                last_used_at DOUBLE PRECISION,
                amr TEXT
            )
            """,
            "CREATE INDEX oauth_sessions_user ON oauth_sessions (user_id, app_id)",
            "CREATE INDEX oauth_sessions_code ON oauth_sessions (code_hash)",
            "CREATE INDEX oauth_sessions_revoked ON oauth_sessions (revoked_at)",
            """
            CREATE TABLE oauth_refresh_tokens (
                token_hash TEXT PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES oauth_sessions(id) ON DELETE CASCADE,
                issued_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                rotated_at DOUBLE PRECISION,
                successor_hash TEXT
            )
            """,
            "CREATE INDEX oauth_refresh_tokens_session ON oauth_refresh_tokens (session_id)",
            "CREATE INDEX oauth_refresh_tokens_expiry ON oauth_refresh_tokens (expires_at)",
        ]),
    ]

    /// The newest schema this build knows.
    public static var newestVersion: Int { steps.last?.version ?? 0 }

    /// What `repairminder migrate --status` shows: the steps recorded as applied (version,
    /// name), those of this build not yet applied, and versions recorded that this build does
    /// not know (a newer version ran here). Changes nothing.
    public static func status(of database: Database) async throws -> (applied: [(Int, String)], pending: [(Int, String)], unknown: [Int]) {
        let recorded = try await database.withConnection { db in
            try await db.raw("SELECT version, name FROM schema_migrations ORDER BY version").all().map {
                (try $0.decode(column: "version", as: Int.self), try $0.decode(column: "name", as: String.self))
            }
        }
        let known = Set(steps.map(\.version)), done = Set(recorded.map(\.0))
        return (
            recorded.filter { known.contains($0.0) }, steps.filter { !done.contains($0.version) }.map { ($0.version, $0.name) },
            recorded.map(\.0).filter { !known.contains($0) }
        )
    }

    /// Applies every step not yet recorded, each in its own transaction. Safe to run from
    /// several processes at once: each step runs under one lock (SQLite's write lock, a
    /// PostgreSQL advisory lock) and checks again inside it whether it is still to do.
    static func run(on database: Database, logger: Logger) async throws {
        let lock = "repairminder-migrations"
        try await database.transaction(serializedOn: lock) { db in
            try await db.raw(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
            ).run()
        }
        var appliedNow: [String] = []
        for step in steps {
            let applied = try await database.transaction(serializedOn: lock) { db in
                let done = try await db.raw("SELECT version FROM schema_migrations WHERE version = \(bind: step.version)")
                    .first()
                if done != nil { return false }
                let engineStatements = database.engine == .postgres ? step.postgresStatements : []
                for statement in step.statements + engineStatements { try await db.raw(SQLQueryString(statement)).run() }
                try await db.raw(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: step.version), \(bind: step.name), \(bind: Date().timeIntervalSince1970))"
                ).run()
                return true
            }
            if applied {
                logger.debug("Applied migration \(step.version): \(step.name)")
                appliedNow.append("\(step.version)")
            }
        }
        // One line at start-up, not one per migration (a new database applies them all).
        if !appliedNow.isEmpty {
            logger.info("Applied \(appliedNow.count) migration\(appliedNow.count == 1 ? "" : "s") (\(appliedNow.joined(separator: ", "))); the schema is at \(steps.last?.version ?? 0)")
        }
    }
}

extension Database {
    /// Opens the database the settings name and brings its schema up to date.
    public static func openMigrated(settings: ServerSettings, logger: Logger, metrics: ServerMetrics? = nil) async throws -> Database {
        let database = try await open(settings: settings, logger: logger, metrics: metrics)
        do {
            try await Migrations.run(on: database, logger: logger)
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// Opens the database the settings name, as it is.
    public static func open(settings: ServerSettings, logger: Logger, metrics: ServerMetrics? = nil) async throws -> Database {
        let location = try settings.databaseLocation()
        switch location {
        case .sqlite:
            // One writer at a time whatever the pool: a few connections are enough for readers.
            return try await open(
                location, poolSize: min(settings.databasePoolSize, 4), sqliteSynchronous: settings.sqliteSynchronous, logger: logger,
                metrics: metrics)
        case .postgres:
            return try await open(location, poolSize: settings.databasePoolSize, logger: logger, metrics: metrics)
        }
    }
}
