import { SMTPServer } from "smtp-server";

export interface Mail {
  from: string;
  to: string[];
  data: string;
}

/** A local SMTP server on 127.0.0.1 (a free port) that keeps every message it receives. */
export async function startSmtp() {
  const inbox: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          // Undo quoted-printable soft line breaks so the text reads as sent.
          data: Buffer.concat(chunks)
            .toString("utf8")
            .replace(/=\r?\n/g, ""),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  /** The first message to `email`, waiting up to `ms` for it to arrive. */
  const mailTo = async (email: string, ms = 5000): Promise<Mail> => {
    const end = Date.now() + ms;
    for (;;) {
      const mail = inbox.find((m) => m.to.includes(email));
      if (mail) return mail;
      if (Date.now() > end) throw new Error(`no mail to ${email} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { inbox, port, mailTo, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
