/** Same origin in production (the API serves the console) and in development (Vite proxies). */
export const API_BASE = window.location.origin;

/** The session cookie rides along with every call: console sessions authorize "key" routes. */
export const withCredentials: typeof fetch = (input, init) => fetch(input, { ...init, credentials: "include" });
