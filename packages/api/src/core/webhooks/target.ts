import { lookup as dnsLookup } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { invalidInput } from "../errors.js";

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/**
 * Whether an address is a public unicast one. Private, loopback, link-local (cloud metadata),
 * unique-local, carrier-grade NAT, multicast, reserved and unspecified ranges are not:
 * a webhook must not become a way into the operator's network (SSRF).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address); // IPv4-mapped IPv6 is judged as the IPv4 it carries
  if (ip.range() !== "unicast") return false;
  // ipaddr calls every IPv6 address outside its named ranges "unicast", IPv4-compatible ones
  // (::127.0.0.1, written [::7f00:1]) included: only global unicast (2000::/3) is public.
  return ip.kind() === "ipv4" || ip.match(GLOBAL_UNICAST_V6);
}

/** The checks on a webhook URL at creation: http(s), no credentials, a literal public IP or a name. */
export function checkWebhookUrl(text: string, allowPrivate: boolean): URL {
  const url = new URL(text);
  const refuse = (why: string) =>
    invalidInput(`webhookUrl: ${why}`, { issues: [{ field: "webhookUrl", message: why }] });
  if (url.protocol !== "http:" && url.protocol !== "https:") throw refuse("must be http or https");
  if (url.username || url.password) throw refuse("must not carry credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) {
    throw refuse("points at a private, loopback or link-local address");
  }
  if (!allowPrivate && /^(localhost|.*\.localhost|.*\.local|.*\.internal)$/i.test(host)) {
    throw refuse("points at a local host name");
  }
  return url;
}

/**
 * A DNS lookup for the delivery's socket that refuses non-public answers (unless allowed), so a
 * name that resolves (or is rebound) to a private address is never connected to.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as { address: string; family: number }[];
      const ok = allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
      if (ok.length === 0) {
        return callback(
          Object.assign(new Error(`${hostname} resolves to no public address`), { code: "EADDRNOTPUBLIC" }),
          "",
          0,
        );
      }
      if (options.all) return callback(null, ok);
      callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}
