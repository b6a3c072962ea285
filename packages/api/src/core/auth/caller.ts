/** Who is calling, as handlers see it: an API key, a console session, or nobody. */
export type Caller = { kind: "key"; id: string } | { kind: "session"; email: string } | { kind: "anonymous" };

/**
 * The owner string of things a caller creates (onboarding tasks): the key's id, or
 * "session:<email>" for a console user; undefined for an anonymous caller.
 */
export const ownerOf = (caller: Caller): string | undefined =>
  caller.kind === "key" ? caller.id : caller.kind === "session" ? `session:${caller.email}` : undefined;
