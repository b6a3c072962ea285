import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Config } from "../config/env.js";
import type { Db } from "../db/db.js";
import { ApiError } from "../errors.js";

/** Delivers a sign-in code. */
export interface Mailer {
  readonly kind: "smtp" | "log";
  sendCode(email: string, code: string, ttlSeconds: number): Promise<void>;
  close(): void;
}

const MAILBOX_KEEP = 50;

/**
 * SMTP (nodemailer) when SMTP_URL is set. Otherwise, with DEV_MAILBOX on, the code goes to the
 * dev mailbox table (so the dev page works across instances). A code is never logged: logs
 * are read by more people than the address's owner.
 */
export async function createMailer(config: Config, db: Db, logger: Logger): Promise<Mailer> {
  const { smtpUrl, mailFrom, origin, devMailbox } = config.console;
  if (smtpUrl) {
    const { createTransport } = await import("nodemailer");
    const transport = createTransport(smtpUrl);
    return {
      kind: "smtp",
      async sendCode(email, code, ttlSeconds) {
        const minutes = Math.max(1, Math.round(ttlSeconds / 60));
        const where = origin ? ` at ${origin}/console/` : "";
        try {
          await transport.sendMail({
            from: mailFrom,
            to: email,
            subject: `Your sign-in code: ${code}`,
            text: `Your sign-in code for the points console${where} is ${code}.\n\nIt expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`,
          });
        } catch (err) {
          // The SMTP error may name the server's credentials: log its code only.
          logger.error({ smtpCode: (err as { code?: string }).code }, "console sign-in e-mail failed");
          throw new ApiError("INTERNAL", "the sign-in e-mail could not be sent: try again later", undefined, {
            cause: err,
          });
        }
      },
      close: () => transport.close(),
    };
  }
  return {
    kind: "log",
    async sendCode(email, code) {
      if (!devMailbox) {
        logger.warn({ email }, "console sign-in code not delivered: set SMTP_URL (or DEV_MAILBOX=1 in development)");
        return;
      }
      logger.info({ email }, "console sign-in code put in the dev mailbox");
      await db.query("INSERT INTO console_dev_mailbox (id, email, code) VALUES ($1, $2, $3)", [
        randomUUID(),
        email,
        code,
      ]);
      await db.query(
        `DELETE FROM console_dev_mailbox WHERE id NOT IN
           (SELECT id FROM console_dev_mailbox ORDER BY sent_at DESC, id LIMIT ${MAILBOX_KEEP})`,
      );
    },
    close: () => undefined,
  };
}

export interface MailboxEntry {
  email: string;
  code: string;
  sentAt: string;
}

/** Whether an address is this machine's own (IPv4, IPv6 or IPv4-mapped loopback). */
export const isLoopbackIp = (ip: string | undefined): boolean =>
  ip !== undefined && (ip === "::1" || /^(::ffff:)?127(\.[0-9]{1,3}){3}$/.test(ip));

/**
 * The dev mailbox, newest first; undefined when it is switched off (not enabled, SMTP
 * configured or production) or the client is not on this machine: anyone who reads it can
 * sign in as anyone.
 */
export async function readDevMailbox(config: Config, db: Db, loopback: boolean): Promise<MailboxEntry[] | undefined> {
  if (!config.console.devMailbox || !loopback) return undefined;
  const rows = await db.query<{ email: string; code: string; sent_at: Date | string }>(
    `SELECT email, code, sent_at FROM console_dev_mailbox ORDER BY sent_at DESC, id LIMIT ${MAILBOX_KEEP}`,
  );
  return rows.map((r) => ({ email: r.email, code: r.code, sentAt: new Date(r.sent_at).toISOString() }));
}

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The dev mailbox as a plain page (no scripts; no meta refresh, which moves readers' focus: a reload link). */
export function mailboxPage(entries: MailboxEntry[]): string {
  const rows = entries
    .map(
      (e) => `<tr><td>${escape(e.sentAt)}</td><td>${escape(e.email)}</td><td><code>${escape(e.code)}</code></td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox: console sign-in codes</title>
</head>
<body>
<h1>Dev mailbox</h1>
<p>Sign-in codes the console sent while no SMTP server is configured (development only). Newest first. <a href="/console/dev/mailbox">Reload</a> for new ones.</p>
<table>
<thead><tr><th>Sent</th><th>E-mail</th><th>Code</th></tr></thead>
<tbody>
${rows || '<tr><td colspan="3">No codes yet.</td></tr>'}
</tbody>
</table>
</body>
</html>
`;
}
