import type { z } from "zod";
import type { ErrorCode } from "./envelope.js";

export type HttpMethod = "get" | "post" | "put" | "delete";

/**
 * One HTTP route of the API: the single source of its path, auth and schemas. The API
 * validates with these schemas and generates OpenAPI from them; the SDK derives its types.
 */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Express-style path, `:name` for parameters. */
  path: string;
  summary: string;
  tag: string;
  /**
   * "open": no credentials unless the operator requires keys everywhere (then a key or a console
   * session); "key": an API key or a console session cookie; "session": a console session only.
   */
  auth: "open" | "key" | "session";
  /** Stays open even when the operator requires keys everywhere: the routes that obtain a session. */
  public?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** HTTP status of success (200 unless stated). */
  status?: number;
  /**
   * Other success statuses the route may answer, with the same response schema, each with what
   * it means (documented in OpenAPI); the handler picks one with `http.answerStatus`.
   */
  alsoAnswers?: Record<number, string>;
  /** Error codes this route answers beyond those every route of its kind answers. */
  errors?: ErrorCode[];
}

export const defineRoute = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<P, Q, B, R>,
) => def;

type AnyRoute = RouteDef<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;
type Schema<T, K extends string> = T extends { [k in K]: infer X extends z.ZodType } ? X : z.ZodType;
/** The schema `K` a family route ends up with: its own, else the family's. */
type Merged<S, D, K extends string> = D extends { [k in K]: z.ZodType } ? Schema<D, K> : Schema<S, K>;

/**
 * A family of routes sharing some fields (method, tag, auth, a params or body schema, the
 * response): `shared` is written once, each route adds what is its own (a field given by both
 * takes the route's value). The result is typed as {@link defineRoute}'s.
 */
export const routeFamily =
  <S extends Partial<AnyRoute>>(shared: S) =>
  <D extends Partial<AnyRoute>>(own: D) =>
    ({ ...shared, ...own }) as unknown as RouteDef<
      Merged<S, D, "params">,
      Merged<S, D, "query">,
      Merged<S, D, "body">,
      Merged<S, D, "response">
    >;

/** Body type a route accepts (before validation transforms). */
export type RouteBody<T> = T extends RouteDef<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
/** Params type of a route. */
export type RouteParams<T> = T extends RouteDef<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.input<P> : never;
/** Query type of a route. */
export type RouteQuery<T> = T extends RouteDef<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
/** `data` of a route's success envelope. */
export type RouteData<T> =
  T extends RouteDef<z.ZodType, z.ZodType, z.ZodType, infer R>
    ? z.output<R> extends { data: infer D }
      ? D
      : never
    : never;
