/**
 * When the scheduled jobs run and how much one run may spend, as lib/core/config.ts reads them:
 * the catalog import (CATALOG_IMPORT_CRON), the availability job (AVAILABILITY_CRON,
 * AVAILABILITY_BUDGET) and the details job (DETAILS_CRON, DETAILS_BUDGET).
 */
import { ConfigError, type Env, positiveInteger, value } from "./config_values.ts";

/** The jobs' schedules (a five-field cron expression, null when `off`) and budgets. */
export interface JobsConfig {
  /** Cron expression of the scheduled import; null when `off`. */
  catalogImportCron: string | null;
  /** Cron expression of the availability job (AVAILABILITY_CRON); null when `off`. */
  availabilityCron: string | null;
  /** External calls one availability run may make (AVAILABILITY_BUDGET, default 2,000). */
  availabilityBudget: number;
  /** Cron expression of the details job (DETAILS_CRON, every 10 minutes); null when `off`. */
  detailsCron: string | null;
  /** External calls one details run may make (DETAILS_BUDGET, default 5,000). */
  detailsBudget: number;
}

const CRON_FIELD = /^(\*|\d+(-\d+)?)(\/\d+)?(,(\*|\d+(-\d+)?)(\/\d+)?)*$/;

function cron(env: Env, name: string, fallback: string): string | null {
  const raw = value(env, name) ?? fallback;
  if (raw.toLowerCase() === "off") return null;
  const fields = raw.split(/\s+/);
  if (fields.length !== 5 || !fields.every((f) => CRON_FIELD.test(f))) {
    throw new ConfigError(
      name,
      `must be a five-field cron expression or "off", got ${JSON.stringify(raw)}`,
    );
  }
  return fields.join(" ");
}

/** Reads the jobs' settings in this order; throws a ConfigError naming the first bad one. */
export function readJobsConfig(env: Env): JobsConfig {
  return {
    catalogImportCron: cron(env, "CATALOG_IMPORT_CRON", "0 3 * * *"),
    availabilityCron: cron(env, "AVAILABILITY_CRON", "0 4 * * *"),
    availabilityBudget: positiveInteger(env, "AVAILABILITY_BUDGET", 2000),
    detailsCron: cron(env, "DETAILS_CRON", "*/10 * * * *"),
    detailsBudget: positiveInteger(env, "DETAILS_BUDGET", 5000),
  };
}
