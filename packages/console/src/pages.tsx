import type { ComponentType } from "react";
import { preloadable } from "./components/preloadable";

/** A dashboard page: its URL segment under /console/program/, its nav label and its code, loaded on first visit. */
export interface DashboardPage {
  path: string;
  label: string;
  component: ComponentType;
  /** Starts fetching the page's chunk (a deep link fetches it while the session loads). */
  preload(): Promise<unknown>;
}

/** Route-level code splitting: each page is its own chunk, fetched when first opened. */
const page = <M,>(path: string, label: string, load: () => Promise<M>, name: keyof M): DashboardPage => ({
  path,
  label,
  ...preloadable(load, name),
});

/**
 * Every dashboard page, one line each, in nav order. A page added here gets its URL
 * (/console/program/<path>), its nav link and its own chunk; nothing else needs editing.
 */
export const DASHBOARD_PAGES: DashboardPage[] = [
  page("overview", "Overview", () => import("./dashboard/Overview"), "Overview"),
  page("campaigns", "Campaigns", () => import("./dashboard/Campaigns"), "Campaigns"),
  page("allowlists", "Allowlists", () => import("./dashboard/Allowlists"), "Allowlists"),
  page("roles", "Roles", () => import("./dashboard/Roles"), "Roles"),
  page("redemption", "Redemption", () => import("./dashboard/Redemption"), "Redemption"),
  page("settings", "Settings", () => import("./dashboard/settings/Settings"), "Settings"),
  page("redemption-desk", "Redemption desk", () => import("./redemption-desk/RedemptionDesk"), "RedemptionDesk"),
  page("safe", "Safe", () => import("./safe/SafePage"), "SafePage"),
  page("customer", "Customers", () => import("./dashboard/customer/Customer"), "Customer"),
  page("webhooks", "Webhooks", () => import("./dashboard/webhooks/Webhooks"), "Webhooks"),
  page("bulk", "Bulk drops", () => import("./bulk/BulkUpload"), "BulkUpload"),
];
