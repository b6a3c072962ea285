import type { TestApi } from "./service.js";
import { send } from "./http.js";

/**
 * Sends `requests` made-up API keys from `ip` (or the address `ip(i)` for request i), one after
 * another, round robin over `apis`, and returns how many of them were looked up in the database
 * (ApiKeys.verify calls, all instances).
 */
export async function inventedKeyLookups(
  apis: TestApi[],
  ip: string | ((i: number) => string),
  requests: number,
): Promise<number> {
  let lookups = 0;
  const restore = apis.map(({ service }) => {
    const keys = service.ctx.keys;
    const verify = keys.verify;
    keys.verify = (key: string) => {
      lookups++;
      return verify.call(keys, key);
    };
    return () => (keys.verify = verify);
  });
  try {
    for (let i = 0; i < requests; i++) {
      await send(apis[i % apis.length].url, "GET", "/health", {
        headers: { authorization: `Bearer pk_invented${i}`, "x-forwarded-for": typeof ip === "string" ? ip : ip(i) },
      });
    }
  } finally {
    for (const r of restore) r();
  }
  return lookups;
}
