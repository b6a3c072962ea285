import { Redis } from "ioredis";
import type { Logger } from "pino";

/** Where the shared request budgets live when the operator runs Redis (REDIS_URL). */
export interface RedisConfig {
  url: string;
  /** Put before every key, so deployments sharing one Redis keep apart. */
  keyPrefix: string;
  /** How long each command may take (REDIS_COMMAND_TIMEOUT_MS): past it the limiter lets the request through. */
  commandTimeoutMs: number;
}

/** How long the start waits for Redis. */
const CONNECT_TIMEOUT_MS = 5_000;

/** host:port of a Redis URL, never its password (start-up errors and logs name the server by it). */
export function redisHost(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || "6379"}`;
}

/**
 * Connects to Redis and checks it answers (PING) before the service starts: a configured store
 * that is not there stops the start with a message naming the server, never the URL (it may hold
 * a password). Afterwards a command that fails or is slow fails alone (no offline queue, one try),
 * and the rate limiter lets the request through (packages/api/README.md#scaling-out); the client
 * reconnects by itself.
 */
export async function openRedis(config: RedisConfig, logger: Logger): Promise<Redis> {
  const client = new Redis(config.url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: config.commandTimeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
  });
  let lastError = "";
  client.on("error", (e: Error) => {
    // One line per distinct failure: a Redis that is down would otherwise log every reconnect.
    if (e.message === lastError) return;
    lastError = e.message;
    logger.warn(
      { redis: redisHost(config.url), error: e.message },
      "redis: request budgets fall back to letting requests through",
    );
  });
  client.on("ready", () => {
    if (lastError) logger.info({ redis: redisHost(config.url) }, "redis: answering again");
    lastError = "";
  });
  try {
    await client.connect();
    await client.ping();
  } catch (e) {
    client.disconnect();
    throw new Error(
      `REDIS_URL: Redis at ${redisHost(config.url)} did not answer (${(e as Error).message}): start it, or unset REDIS_URL to keep request budgets in PostgreSQL`,
      { cause: e },
    );
  }
  return client;
}
