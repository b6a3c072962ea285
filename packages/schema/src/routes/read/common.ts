import { z } from "zod";
import { ProgramRef } from "../../primitives.js";
import { routeFamily } from "../../route.js";

export const ProgramQuery = z.object({ program: ProgramRef });
/** A GET route reading the chain state of the default (or named) program. */
export const programRead = routeFamily({ method: "get", tag: "read", auth: "open", query: ProgramQuery });
