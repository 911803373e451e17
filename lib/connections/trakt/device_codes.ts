/**
 * The device flow (docs/trakt.md, "Sign-in"): a device asks for a code, the person types the
 * short one on /activate and approves the app, and the device's polls get Trakt's statuses
 * until the tokens come, once.
 */
import { Problem } from "@/lib/core/problem.ts";
import { appByClientId, secretMatches } from "./apps.ts";
import { invalidClient } from "./errors.ts";
import { newUserCode, normalizeUserCode, randomSecret, secretDigest } from "./oauth_secrets.ts";
import { issueTokens, type OAuthDeps, type TokenAnswer } from "./tokens.ts";

/** A device code lives 10 minutes. */
const DEVICE_CODE_SECONDS = 600;
/** A device polls at most every 5 seconds. */
const POLL_INTERVAL_SECONDS = 5;
// Spent and expired codes are kept a day, so a late poll still reads 409 or 410, not 404.
const KEEP_MS = 86_400_000;

/** The answer of POST /trakt/oauth/device/code. */
export interface DeviceCodeAnswer {
  device_code: string;
  user_code: string;
  verification_url: string;
  expires_in: number;
  interval: number;
}

/** A pending code as /activate shows it. */
export interface PendingActivation {
  userCode: string;
  app: { name: string | null; clientId: string };
  expiresAt: string;
}

function codeNotFound(): Problem {
  return new Problem(
    404,
    "device_code_not_found",
    "No code waits with these letters: it is unknown, used or expired.",
  );
}

/** A new device code for `clientId`; the person opens `verificationUrl` to type its user code. */
export async function createDeviceCode(
  { sql, clock }: OAuthDeps,
  input: { clientId: string; verificationUrl: string },
): Promise<DeviceCodeAnswer> {
  const now = clock.now();
  await sql.query(`delete from public.trakt_device_codes where expires_at < $1::timestamptz`, [
    new Date(now - KEEP_MS).toISOString(),
  ]);
  const deviceCode = randomSecret();
  const hash = await secretDigest(deviceCode);
  // 32^8 codes: a clash with a live one is rare, and answered by drawing again.
  for (let attempt = 0; attempt < 5; attempt++) {
    const userCode = newUserCode();
    const rows = await sql.query(
      `insert into public.trakt_device_codes
         (device_hash, user_code, client_id, created_at, expires_at)
       values ($1, $2, $3, $4::timestamptz, $5::timestamptz)
       on conflict (user_code) do nothing returning user_code`,
      [
        hash,
        userCode,
        input.clientId,
        new Date(now).toISOString(),
        new Date(now + DEVICE_CODE_SECONDS * 1000).toISOString(),
      ],
    );
    if (rows.length) {
      return {
        device_code: deviceCode,
        user_code: userCode,
        verification_url: input.verificationUrl,
        expires_in: DEVICE_CODE_SECONDS,
        interval: POLL_INTERVAL_SECONDS,
      };
    }
  }
  throw new Problem(503, "code_space_busy", "No free code was found; try again.");
}

interface DeviceRow {
  status: "pending" | "approved" | "denied" | "used";
  clientId: string;
  expiresAt: unknown;
  lastPolledAt: unknown;
  userId: string | null;
}

/**
 * A device's poll: the tokens once the person approved (the code then spent), else Trakt's
 * status: 400 pending, 404 unknown, 409 used, 410 expired, 418 denied, 429 polled faster
 * than the interval.
 */
export async function pollDeviceCode(
  { sql, clock }: OAuthDeps,
  input: { code: string; clientId: string; clientSecret?: string },
): Promise<TokenAnswer> {
  const hash = await secretDigest(input.code);
  const [row] = await sql.query<DeviceRow>(
    `select status, client_id as "clientId", expires_at as "expiresAt",
            last_polled_at as "lastPolledAt", user_id as "userId"
       from public.trakt_device_codes where device_hash = $1`,
    [hash],
  );
  if (!row || row.clientId !== input.clientId) {
    throw new Problem(404, "not_found", "Invalid device code.");
  }
  const app = await appByClientId(sql, input.clientId);
  // An app made here has a secret to check; a client registered at Trakt has none we know.
  if (app && !(await secretMatches(app, input.clientSecret))) throw invalidClient();
  const now = clock.now();
  if (row.status === "used") {
    throw new Problem(409, "already_used", "This code was already used to get a token.");
  }
  if (new Date(row.expiresAt as string).getTime() <= now) {
    throw new Problem(410, "expired", "This code has expired; ask for a new one.");
  }
  if (row.status === "denied") {
    throw new Problem(418, "denied", "The user denied this code.");
  }
  const last = row.lastPolledAt === null ? undefined : new Date(row.lastPolledAt as string);
  if (last && now - last.getTime() < POLL_INTERVAL_SECONDS * 1000) {
    throw new Problem(429, "slow_down", `Poll at most every ${POLL_INTERVAL_SECONDS} seconds.`, {
      headers: { "Retry-After": String(POLL_INTERVAL_SECONDS) },
    });
  }
  if (row.status === "pending") {
    await sql.query(
      `update public.trakt_device_codes set last_polled_at = $2::timestamptz
        where device_hash = $1`,
      [hash, new Date(now).toISOString()],
    );
    throw new Problem(400, "authorization_pending", "Waiting for the user to approve the code.");
  }
  // Approved: spend it in one statement, so two polls at once cannot both get tokens.
  const [spent] = await sql.query<{ userId: string }>(
    `update public.trakt_device_codes set status = 'used', last_polled_at = $2::timestamptz
      where device_hash = $1 and status = 'approved' returning user_id as "userId"`,
    [hash, new Date(now).toISOString()],
  );
  if (!spent) throw new Problem(409, "already_used", "This code was already used to get a token.");
  return await issueTokens({ sql, clock }, {
    userId: String(spent.userId),
    clientId: input.clientId,
    appId: app?.id ?? null,
  });
}

/** The pending code the person typed, with the app's name when it is one made here. */
export async function findActivation(
  { sql, clock }: OAuthDeps,
  typed: string,
): Promise<PendingActivation> {
  const code = normalizeUserCode(typed);
  if (!code) throw codeNotFound();
  const [row] = await sql.query(
    `select d.user_code as "userCode", d.client_id as "clientId", d.expires_at as "expiresAt",
            a.name
       from public.trakt_device_codes d
       left join public.trakt_apps a on a.client_id = d.client_id
      where d.user_code = $1 and d.status = 'pending' and d.expires_at > $2::timestamptz`,
    [code, new Date(clock.now()).toISOString()],
  );
  if (!row) throw codeNotFound();
  return {
    userCode: String(row.userCode),
    app: { name: row.name === null ? null : String(row.name), clientId: String(row.clientId) },
    expiresAt: new Date(row.expiresAt as string).toISOString(),
  };
}

/** The person's answer to a pending code: approved for `userId`, or denied. */
export async function decideActivation(
  { sql, clock }: OAuthDeps,
  input: { userId: string; code: string; approve: boolean },
): Promise<"approved" | "denied"> {
  const code = normalizeUserCode(input.code);
  if (!code) throw codeNotFound();
  const rows = await sql.query(
    `update public.trakt_device_codes set status = $2, user_id = $3
      where user_code = $1 and status = 'pending' and expires_at > $4::timestamptz
      returning status`,
    [
      code,
      input.approve ? "approved" : "denied",
      input.userId,
      new Date(clock.now()).toISOString(),
    ],
  );
  if (!rows.length) throw codeNotFound();
  return input.approve ? "approved" : "denied";
}
