import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createService, loadConfig, memoryDbTemplate, type Service } from "../src/index.js";
import { assertError, send } from "./helpers/http.js";
import { startLoggedApi } from "./helpers/logs.js";
import { startSmtp } from "./helpers/smtp.js";
import { requestCode, sessionCookie, verifyCode } from "./helpers/console.js";

describe("console: sign-in codes sent by SMTP when SMTP settings are configured", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let service: Service;
  let url: string;
  let lines: string[];

  before(async () => {
    smtp = await startSmtp();
    ({ service, url, lines } = await startLoggedApi({
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Points <no-reply@points.test>",
      CONSOLE_ORIGIN: "https://console.points.test",
    }));
  });
  after(async () => {
    await service?.close();
    await smtp?.close();
  });

  it("requestCode_mailsTheCode_andTheCodeSignsIn", async () => {
    assert.equal((await requestCode(url, "Mail@Example.com")).status, 200);
    const mail = await smtp.mailTo("mail@example.com");
    assert.equal(mail.from, "no-reply@points.test");
    const code = /sign-in code for the points console at https:\/\/console\.points\.test\/console\/ is ([0-9]{6})/.exec(
      mail.data,
    )?.[1];
    assert.ok(code, mail.data);
    assert.match(mail.data, /^Subject: Your sign-in code: [0-9]{6}/m);
    assert.match(mail.data, /expires in 10 minutes/);
    const res = await verifyCode(url, "mail@example.com", code);
    assert.equal(res.status, 200, res.text);
    assert.ok(sessionCookie(res));
  });

  it("withSmtp_theCodeIsNeitherLoggedNorInTheDevMailbox", async () => {
    await requestCode(url, "private@example.com");
    const mail = await smtp.mailTo("private@example.com");
    const code = /is ([0-9]{6})\./.exec(mail.data)![1];
    assert.ok(!lines.some((l) => l.includes("console sign-in code")), "code logged despite SMTP");
    assert.ok(!lines.some((l) => l.includes(`"code":"${code}"`)), "code logged despite SMTP");
    assertError(await send(url, "GET", "/console/v1/dev/mailbox"), "NOT_FOUND");
    assertError(await send(url, "GET", "/console/dev/mailbox"), "NOT_FOUND");
    assert.equal((await service.ctx.db.query("SELECT * FROM console_dev_mailbox")).length, 0);
  });

  it("anSmtpFailure_is500_withoutDetails_andTheServiceKeepsServing", async () => {
    const closed = await startSmtp();
    await closed.close();
    const broken = await createService(
      loadConfig({
        PORT: "0",
        DATA_DIR: "memory://",
        LOG_LEVEL: "silent",
        SMTP_URL: `smtp://127.0.0.1:${closed.port}`,
      }),
      { memoryDbSeed: await memoryDbTemplate() },
    );
    const brokenUrl = await broken.listen();
    try {
      const res = await requestCode(brokenUrl, "lost@example.com");
      assertError(res, "INTERNAL");
      assert.match(res.body.error.message, /could not be sent/);
      assert.equal((await send(brokenUrl, "GET", "/health")).status, 200);
    } finally {
      await broken.close();
    }
  });
});
