/** The real API (@points/api, a dev dependency of the CLI only) on a free port against the test's node, for --propose. */
import * as pointsApi from "@points/api";
import { startApi, type TestApi } from "@points/testkit";

export async function startLiveApi(nodeUrl: string): Promise<TestApi<pointsApi.Service>> {
  return startApi(pointsApi, nodeUrl, { LEDGER: "off" });
}
