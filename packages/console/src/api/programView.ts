import type { ResponseData } from "@points/sdk";

/** The program as the API describes it (its factory answer): what the dashboard and the Safe views read. */
export type ProgramView = ResponseData<"getFactory">;
