import type { Express, Request, Response, NextFunction } from "express";
import { fileRoutes, type FileRouteDef } from "@points/schema";
import type { Ctx } from "../../core/context.js";
import { authenticate } from "./auth.js";
import { parsePart } from "./validate.js";
import { campaignId } from "../../core/program/campaign.js";
import { programBlock, type EventFilter } from "../../core/ledger/read.js";
import { requireReadable } from "../../core/ledger/tenant.js";
import { writeEventsCsv } from "../../core/ledger/csv.js";

type Params = Record<string, string>;

/** What each file route exports: the events' filter and the file's name (without program). */
const EXPORTS: Record<keyof typeof fileRoutes, (p: Params) => { filter: EventFilter; name: string }> = {
  ledgerHolderHistoryCsv: (p) => ({ filter: { account: p.address! }, name: `${p.address!.toLowerCase()}-history` }),
  ledgerCampaignLedgerCsv: (p) => {
    const id = campaignId(p.campaignId!).value;
    return { filter: { campaignId: id }, name: `campaign-${id}-ledger` };
  },
};

// A header value and file name from a program id: nothing but safe characters.
const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "_");

/**
 * Mounts the routes that answer files (the ledger's CSV exports): authenticated, validated and
 * tenant-scoped like their JSON counterparts; errors before the first byte are the envelope.
 */
export function mountFileRoutes(app: Express, ctx: Ctx): void {
  for (const [name, route] of Object.entries(fileRoutes) as [keyof typeof fileRoutes, FileRouteDef][]) {
    app.get(route.path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const caller = authenticate(req, res, route, ctx);
        const params = parsePart(route.params, req.params, "params") as Params;
        const query = parsePart(route.query, req.query, "query") as { program?: string };
        const program = await ctx.programs.resolve(query.program);
        await requireReadable(ctx, program, caller, query.program);
        const blockNumber = await programBlock(ctx.db, program.chainId, program.id);
        const { filter, name: file } = EXPORTS[name](params);
        res.status(200);
        res.setHeader("content-type", "text/csv; charset=utf-8");
        res.setHeader("content-disposition", `attachment; filename="${safeName(`${program.id}-${file}`)}.csv"`);
        res.setHeader("cache-control", "no-store");
        res.setHeader("ledger-block", blockNumber === null ? "" : String(blockNumber));
        await writeEventsCsv(ctx.db, program.id, filter, blockNumber, res);
      } catch (e) {
        if (!res.headersSent) return next(e);
        // Mid-stream the status is gone: the cut connection tells the client the file is incomplete.
        ctx.logger.error({ err: e, route: name }, "CSV export failed mid-stream");
        res.destroy();
      }
    });
  }
}

/** [method, path] of every file route (for 405 answers). */
export const FILE_ROUTE_PATHS = Object.values(fileRoutes).map((r): [string, string] => [r.method, r.path]);
