import type { Db } from "../db/db.js";
import { subscriptionView, type SubscriptionRow } from "../webhooks/store.js";

/**
 * The operator's hand on every tenant's webhook subscriptions (docs/architecture.md#webhooks),
 * for the operator routes and the CLI: list, hold (a pause its owner cannot lift), release, delete.
 */
export const REVOKED_REASON = "its API key was revoked";
const HOLD_REASON = "paused by the operator";

export const operatorWebhookView = (r: SubscriptionRow) => ({
  ...subscriptionView(r),
  createdBy: r.owner,
  operatorHold: r.operator_hold,
});

export class OperatorWebhooks {
  constructor(private readonly db: Db) {}

  list(filter: { owner?: string; status?: string } = {}) {
    return this.db
      .query<SubscriptionRow>(
        `SELECT * FROM webhook_subscriptions WHERE ($1::text IS NULL OR owner = $1) AND ($2::text IS NULL OR status = $2)
         ORDER BY created_at DESC, id`,
        [filter.owner ?? null, filter.status ?? null],
      )
      .then((rows) => rows.map(operatorWebhookView));
  }

  /** Holds a subscription: paused, and its owner's resume is refused; undefined when there is none. */
  async hold(id: string) {
    const [row] = await this.db.query<SubscriptionRow>(
      `UPDATE webhook_subscriptions SET operator_hold = true,
         status = CASE WHEN status = 'disabled' THEN status ELSE 'paused' END,
         disabled_reason = CASE WHEN status = 'disabled' THEN disabled_reason ELSE $2 END
       WHERE id = $1 RETURNING *`,
      [id, HOLD_REASON],
    );
    return row && operatorWebhookView(row);
  }

  /**
   * Lifts the hold and sends again (the held delivery at once, with a new retry window);
   * "revoked" for a subscription whose key was revoked, which stays disabled.
   */
  async release(id: string) {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<SubscriptionRow>("SELECT * FROM webhook_subscriptions WHERE id = $1 FOR UPDATE", [
        id,
      ]);
      if (!row) return undefined;
      if (row.disabled_reason === REVOKED_REASON) return "revoked" as const;
      const [after] = await tx.query<SubscriptionRow>(
        `UPDATE webhook_subscriptions SET operator_hold = false, status = 'active', disabled_reason = NULL
         WHERE id = $1 RETURNING *`,
        [id],
      );
      await tx.query(
        `UPDATE webhook_deliveries SET next_attempt_at = now(), first_attempt_at = NULL
         WHERE subscription_id = $1 AND status = 'pending'`,
        [id],
      );
      return operatorWebhookView(after!);
    });
  }

  async remove(id: string): Promise<boolean> {
    return (await this.db.query("DELETE FROM webhook_subscriptions WHERE id = $1 RETURNING id", [id])).length === 1;
  }
}
