import { Writable } from "node:stream";
import { createService, loadConfig, memoryDbTemplate, type Service } from "../../src/index.js";
import { createLogger } from "../../src/server/http/logger.js";

/** A port nothing listens on: the API starts without a reachable chain. */
export const CLOSED_PORT = "http://127.0.0.1:9";

/** JSON log lines captured from every logger `logger(level)` makes, one entry per line. */
export function captureLogs() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, logger: (level: string) => createLogger(level, sink) };
}

export interface LoggedApi {
  service: Service;
  url: string;
  lines: string[];
}

/** The API on a free port, database in memory, chain on {@link CLOSED_PORT}, logs captured. */
export async function startLoggedApi(env: Record<string, string> = {}, level = "info"): Promise<LoggedApi> {
  const logs = captureLogs();
  const config = loadConfig({
    PORT: "0",
    DATA_DIR: "memory://",
    CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: CLOSED_PORT }]),
    ...env,
  });
  const service = await createService(config, { logger: logs.logger(level), memoryDbSeed: await memoryDbTemplate() });
  const url = await service.listen();
  return { service, url, lines: logs.lines };
}
