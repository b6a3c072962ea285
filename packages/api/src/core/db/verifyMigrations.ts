/**
 * Source verification's tables (docs/deployment.md#source-verification), appended to the
 * service's one list of migrations (src/db/migrations.ts).
 */
export const VERIFY_MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: "090_source_verification",
    sql: `
      -- One row per contract and explorer: a release contract shared by many programs is verified once.
      CREATE TABLE source_verifications (
        chain_id TEXT NOT NULL,
        address TEXT NOT NULL,
        explorer TEXT NOT NULL CHECK (explorer IN ('etherscan', 'sourcify')),
        artifact TEXT NOT NULL,
        constructor_args TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'verified', 'failed')),
        url TEXT,
        reason TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (chain_id, address, explorer)
      );
      CREATE INDEX source_verifications_due ON source_verifications (next_attempt_at) WHERE status = 'pending';
      -- Which contracts a program's view lists: its proxies and its release's contracts.
      CREATE TABLE source_verification_targets (
        program_id TEXT NOT NULL,
        chain_id TEXT NOT NULL,
        address TEXT NOT NULL,
        contract TEXT NOT NULL,
        PRIMARY KEY (program_id, address)
      );
    `,
  },
];

/**
 * Who holds each claim: renewals and answers are written only by the holder, so a job whose claim
 * lapsed while an explorer was slow neither overwrites the answer of the job that took it over nor
 * claims the row again itself.
 */
export const VERIFY_CLAIM_MIGRATIONS: { id: string; sql: string }[] = [
  {
    id: "105_source_verification_claims",
    sql: `ALTER TABLE source_verifications ADD COLUMN claimed_by TEXT;`,
  },
];
