// Client-side checks mirror the onboarding schema so mistakes show before a round trip.

export const text = (v: string, max: number) =>
  v.trim().length === 0 ? "Required." : v.trim().length > max ? `At most ${max} characters.` : null;

export function url(v: string): string | null {
  if (!v.trim()) return "Required.";
  try {
    const u = new URL(v.trim());
    return u.protocol === "http:" || u.protocol === "https:" ? null : "Must start with https:// or http://.";
  } catch {
    return "Must be a full web address, like https://example.com.";
  }
}

export const symbol = (v: string) => (/^[A-Za-z0-9]{1,11}$/.test(v) ? null : "1-11 letters or digits.");

export const BRAND = /^[a-z0-9]{1,32}$/;
export const brand = (v: string) =>
  BRAND.test(v) ? null : "1-32 lowercase letters and digits (no spaces, capitals or symbols).";

export const firstError = (errors: Record<string, string | null>) => Object.values(errors).some(Boolean);
