export const LIMIT_MIGRATIONS: { id: string; sql: string }[] = [
  {
    // Request budgets shared by every instance on one database (docs: packages/api/README.md#scaling-out).
    id: "100_rate_limit_hits",
    sql: `
      CREATE TABLE rate_limit_hits (
        key TEXT PRIMARY KEY,
        hits INTEGER NOT NULL,
        reset_at TIMESTAMPTZ NOT NULL
      );
    `,
  },
];
