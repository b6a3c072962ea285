import type { Db } from "./db.js";
import { LEDGER_MIGRATIONS, LEDGER_STATE_MIGRATIONS } from "./ledgerMigrations.js";
import { DESK_MIGRATIONS } from "./deskMigrations.js";
import { WEBHOOK_IDENTITY_MIGRATIONS, WEBHOOK_LEASE_MIGRATIONS, WEBHOOK_MIGRATIONS } from "./webhookMigrations.js";
import { VERIFY_CLAIM_MIGRATIONS, VERIFY_MIGRATIONS } from "./verifyMigrations.js";
import { LIMIT_MIGRATIONS } from "./limitMigrations.js";
import { ENGINE_MIGRATIONS } from "./engineMigrations.js";

/**
 * One ordered list of migrations for both backends. Never edit an applied migration: append.
 * Kept in code (not .sql files) so the built package needs no asset copying.
 */
export const MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: "001_programs_and_keys",
    sql: `
      CREATE TABLE programs (
        id TEXT PRIMARY KEY,
        chain_id TEXT NOT NULL,
        brand TEXT NOT NULL UNIQUE,
        factory TEXT NOT NULL,
        points TEXT NOT NULL,
        collateral_vault TEXT NOT NULL,
        psp_vault TEXT NOT NULL,
        oracle TEXT,
        program_factory TEXT,
        deploy_tx TEXT,
        block_number BIGINT,
        metadata JSONB NOT NULL DEFAULT '{}',
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (chain_id, factory)
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        revoked_at TIMESTAMPTZ
      );
    `,
  },
  {
    id: "002_onboarding",
    sql: `
      CREATE TABLE onboarding_tasks (
        id TEXT PRIMARY KEY,
        api_key_id TEXT,
        idempotency_key TEXT,
        request_hash TEXT NOT NULL,
        request JSONB NOT NULL,
        brand TEXT NOT NULL UNIQUE,
        chain_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        predicted JSONB,
        program_id TEXT,
        lease_owner TEXT,
        lease_expires_at TIMESTAMPTZ,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (api_key_id, idempotency_key)
      );
      CREATE INDEX onboarding_tasks_claim ON onboarding_tasks (chain_id, status, created_at);
      -- One worker at a time sends with a chain's executor key (nonces stay in one process).
      CREATE TABLE executor_leases (
        chain_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
      -- The deployer's manifests (stages, releases, program records), one row per key.
      CREATE TABLE deployer_manifests (
        key TEXT PRIMARY KEY,
        chain_id TEXT NOT NULL,
        body TEXT NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: "003_console",
    sql: `
      CREATE TABLE console_users (
        email TEXT PRIMARY KEY,
        wallet TEXT,
        wizard JSONB NOT NULL DEFAULT '{}',
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      -- Sign-in codes: only an HMAC of the code is kept; ip feeds the per-IP request limit.
      CREATE TABLE login_codes (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        code_hash TEXT NOT NULL,
        ip TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        consumed_at TIMESTAMPTZ,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX login_codes_email ON login_codes (email, created_at);
      CREATE INDEX login_codes_ip ON login_codes (ip, created_at);
      -- Sessions by the SHA-256 of the cookie's value; the value itself is never stored.
      CREATE TABLE console_sessions (
        id_hash TEXT PRIMARY KEY,
        email TEXT NOT NULL REFERENCES console_users (email) ON DELETE CASCADE,
        expires_at TIMESTAMPTZ NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX console_sessions_email ON console_sessions (email);
      -- Development only (no SMTP, not production): what the dev mailbox page shows.
      CREATE TABLE console_dev_mailbox (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL,
        code TEXT NOT NULL,
        sent_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
  },
  {
    id: "004_task_owner_and_structured_error",
    sql: `
      -- Tasks belong to an owner (an API key id or a console session), not only to API keys.
      ALTER TABLE onboarding_tasks RENAME COLUMN api_key_id TO owner;
      -- {stage, code, message}; errors written as text before keep their text as the message.
      ALTER TABLE onboarding_tasks ALTER COLUMN error TYPE JSONB USING CASE
        WHEN error IS NULL THEN NULL
        ELSE jsonb_build_object('stage', NULL, 'code', 'INTERNAL', 'message', error)
      END;
    `,
  },
  {
    id: "005_build_idempotency",
    sql: `
      -- A build route's answer to an Idempotency-Key, per owner (API key or console user),
      -- replayed byte for byte until expires_at.
      CREATE TABLE build_idempotency (
        owner TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        route TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        -- TEXT, not JSONB: a replay must be the same JSON text, key order included.
        response TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        expires_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (owner, idempotency_key)
      );
      CREATE INDEX build_idempotency_expiry ON build_idempotency (expires_at);
    `,
  },
  {
    id: "006_key_scopes_and_deploy_approval",
    sql: `
      -- Keys made before scopes keep what they could do (build, read, deploy); admin is never implied.
      ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT 'build,read,deploy';
      ALTER TABLE api_keys ALTER COLUMN scopes SET DEFAULT 'build,read';
      -- A console account deploys only once the operator approved it (or its e-mail domain).
      ALTER TABLE console_users ADD COLUMN deploy_approved_at TIMESTAMPTZ;
      CREATE INDEX onboarding_tasks_owner_created ON onboarding_tasks (owner, created_at);
    `,
  },
  {
    id: "007_awaiting_approval",
    sql: `
      -- On a chain not marked testnet a deploy waits for the operator before any gas is spent.
      ALTER TABLE onboarding_tasks DROP CONSTRAINT onboarding_tasks_status_check;
      ALTER TABLE onboarding_tasks ADD CONSTRAINT onboarding_tasks_status_check
        CHECK (status IN ('awaiting_approval', 'queued', 'running', 'succeeded', 'failed'));
    `,
  },
  ...LEDGER_MIGRATIONS,
  {
    id: "010_login_backoff",
    sql: `
      -- Guesses at a code, per client IP: one network's wrong guesses never spend another's.
      CREATE TABLE login_code_attempts (
        code_id TEXT NOT NULL,
        ip TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (code_id, ip)
      );
      -- Wrong codes, for the per-address backoff and the per-IP bound (docs: packages/api/README.md#console-backend).
      CREATE TABLE login_failures (
        email TEXT NOT NULL,
        ip TEXT NOT NULL,
        failed_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
      CREATE INDEX login_failures_email ON login_failures (email, failed_at);
      CREATE INDEX login_failures_ip ON login_failures (ip, failed_at);
    `,
  },
  {
    id: "011_brand_per_chain",
    sql: `
      -- A brand is reserved per chain: the same brand on a testnet and on mainnet is the normal path.
      ALTER TABLE programs DROP CONSTRAINT programs_brand_key;
      ALTER TABLE programs ADD CONSTRAINT programs_chain_brand_key UNIQUE (chain_id, brand);
      ALTER TABLE onboarding_tasks DROP CONSTRAINT onboarding_tasks_brand_key;
      ALTER TABLE onboarding_tasks ADD CONSTRAINT onboarding_tasks_chain_brand_key UNIQUE (chain_id, brand);
    `,
  },
  {
    id: "012_chain_assets",
    sql: `
      -- The operator's list of collateral assets and oracle feeds deploys may name on a non-dev chain.
      CREATE TABLE chain_assets (
        chain_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('collateral', 'feed')),
        address TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        added_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (chain_id, kind, address)
      );
    `,
  },
  {
    id: "013_siwe",
    sql: `
      -- Sign-In with Ethereum: nonces are issued to one session and used once; a session keeps
      -- the wallet it proved (a console deploy must name it).
      CREATE TABLE siwe_nonces (
        nonce TEXT PRIMARY KEY,
        session_hash TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        used_at TIMESTAMPTZ
      );
      CREATE INDEX siwe_nonces_expiry ON siwe_nonces (expires_at);
      ALTER TABLE console_sessions ADD COLUMN proven_wallet TEXT;
    `,
  },
  {
    // Safe transaction proposals, scoped to the key or session that created them
    // (docs/architecture.md#safe-multisig).
    id: "020_safe_proposals",
    sql: `
      CREATE TABLE safe_proposals (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        chain_id TEXT NOT NULL,
        safe TEXT NOT NULL,
        nonce NUMERIC(78, 0) NOT NULL,
        safe_tx_hash TEXT NOT NULL,
        tx JSONB NOT NULL,
        created_block BIGINT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        UNIQUE (owner, chain_id, safe_tx_hash)
      );
      CREATE INDEX safe_proposals_owner ON safe_proposals (owner, chain_id, safe, created_at);
      CREATE TABLE safe_proposal_signatures (
        proposal_id TEXT NOT NULL REFERENCES safe_proposals (id) ON DELETE CASCADE,
        signer TEXT NOT NULL,
        signature TEXT NOT NULL,
        created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (proposal_id, signer)
      );
    `,
  },
  ...WEBHOOK_MIGRATIONS,
  {
    // The executor's pause per chain, written by the worker that holds the chain's transaction
    // engine and read by the task view (docs/architecture.md#transaction-engine).
    id: "060_executor_status",
    sql: `
      CREATE TABLE executor_status (
        chain_id TEXT PRIMARY KEY,
        address TEXT NOT NULL,
        paused_code TEXT,
        paused_message TEXT,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
      );
    `,
  },
  ...DESK_MIGRATIONS,
  ...WEBHOOK_LEASE_MIGRATIONS,
  ...LEDGER_STATE_MIGRATIONS,
  ...VERIFY_MIGRATIONS,
  {
    // Several executor keys per chain: one pause row per key (docs/architecture.md#transaction-engine).
    id: "095_executor_status_per_key",
    sql: `
      ALTER TABLE executor_status DROP CONSTRAINT executor_status_pkey;
      ALTER TABLE executor_status ADD PRIMARY KEY (chain_id, address);
    `,
  },
  ...WEBHOOK_IDENTITY_MIGRATIONS,
  ...LIMIT_MIGRATIONS,
  ...ENGINE_MIGRATIONS,
  {
    // A manifest's revision: an instance that read it before answers from memory while the
    // revision is unchanged (src/core/onboarding/store.ts). From a sequence, so no two writes
    // ever share one, not even a manifest deleted and written again.
    id: "104_manifest_revision",
    sql: `
      CREATE SEQUENCE deployer_manifest_revisions;
      ALTER TABLE deployer_manifests ADD COLUMN revision BIGINT NOT NULL DEFAULT nextval('deployer_manifest_revisions');
    `,
  },
  ...VERIFY_CLAIM_MIGRATIONS,
];

// Any constant works; it only has to be the same for every instance of the service.
const MIGRATION_LOCK = 724_113_001;

/**
 * Applies pending migrations in one transaction (all or nothing) and returns their ids.
 * Instances sharing one PostgreSQL serialise on a transaction-scoped advisory lock, so each
 * migration runs exactly once however many start together. `migrations` is for tests.
 */
export async function migrate(
  db: Db,
  migrations: readonly { id: string; sql: string }[] = MIGRATIONS,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    );
    const done = new Set((await tx.query<{ id: string }>("SELECT id FROM schema_migrations")).map((r) => r.id));
    const applied: string[] = [];
    // By id, not by place in the list: branches merged in any order still apply 008 before 010.
    for (const m of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.query("INSERT INTO schema_migrations (id) VALUES ($1)", [m.id]);
      applied.push(m.id);
    }
    return applied;
  });
}
