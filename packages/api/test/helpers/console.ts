import assert from "node:assert/strict";
import { send, type RawResponse } from "./http.js";

const JSON_HEADERS = { "content-type": "application/json" };

/** The `points_session` Set-Cookie of a response, parsed: value and lowercased attributes. */
export function sessionCookie(res: RawResponse): { value: string; attrs: Record<string, string> } | undefined {
  const line = res.headers.getSetCookie().find((c) => c.startsWith("points_session="));
  if (!line) return undefined;
  const [pair, ...rest] = line.split(";");
  const attrs = Object.fromEntries(
    rest.map((a) => {
      const [k, ...v] = a.trim().split("=");
      return [k.toLowerCase(), v.join("=")];
    }),
  );
  return { value: pair.slice("points_session=".length), attrs };
}

/** The Cookie header a browser would send for a session value. */
export const cookieHeader = (value: string) => ({ cookie: `points_session=${value}` });

export const requestCode = (url: string, email: string, headers: Record<string, string> = {}) =>
  send(url, "POST", "/console/v1/auth/request-code", {
    body: JSON.stringify({ email }),
    headers: { ...JSON_HEADERS, ...headers },
  });

export const verifyCode = (url: string, email: string, code: string, headers: Record<string, string> = {}) =>
  send(url, "POST", "/console/v1/auth/verify", {
    body: JSON.stringify({ email, code }),
    headers: { ...JSON_HEADERS, ...headers },
  });

/** The newest code the dev mailbox holds for `email`. */
export async function mailboxCode(url: string, email: string): Promise<string> {
  const res = await send(url, "GET", "/console/v1/dev/mailbox");
  assert.equal(res.status, 200, res.text);
  const entry = res.body.data.find((e: { email: string }) => e.email === email.toLowerCase());
  assert.ok(entry, `no code for ${email} in the dev mailbox`);
  return entry.code;
}

/** Signs in through the dev mailbox; returns the session cookie's value. */
export async function signIn(url: string, email: string): Promise<string> {
  assert.equal((await requestCode(url, email)).status, 200);
  const res = await verifyCode(url, email, await mailboxCode(url, email));
  assert.equal(res.status, 200, res.text);
  const cookie = sessionCookie(res);
  assert.ok(cookie, "verify set no session cookie");
  return cookie.value;
}

/** A JSON request with the session cookie. */
export const withSession = (url: string, session: string, method: string, path: string, body?: unknown) =>
  send(url, method, path, {
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { ...cookieHeader(session), ...(body === undefined ? {} : JSON_HEADERS) },
  });
