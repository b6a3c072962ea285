import type { PreparedTx } from "../types.js";
import type { RouteInput } from "../http.js";
import type { CallOptions, RouteEntry, PublicRouteName, RequestInput, ResponseData, WriteOptions } from "../types.js";

/** The one code path every namespace goes through: `client.request` and its write wrapper. */
export interface Core {
  request<N extends PublicRouteName>(name: N, input?: RequestInput<N>, opts?: CallOptions): Promise<ResponseData<N>>;
  /** `request` for a build route, with the result ready to `send(signer)`; applies nonce and idempotency key. */
  write<N extends PublicRouteName>(
    name: N,
    input: RequestInput<N>,
    opts?: Omit<WriteOptions, "from">,
  ): Promise<PreparedTx>;
  /** A route that answers a file (outside the route table): resolves to the file's text. */
  file(route: RouteEntry, input: RouteInput, opts?: CallOptions): Promise<string>;
  /** The client's default program, applied where a call names none. */
  program: string | undefined;
}
