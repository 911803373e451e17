/**
 * Two-factor codes of the built-in provider in Supabase Auth's `/factors` wire format, so
 * supabase-js `auth.mfa.enroll/challenge/verify/unenroll` work unchanged (docs/identity.md):
 * enrol a TOTP factor, challenge it, verify a code to raise the session to `aal2`, unenroll.
 */
import { z } from "zod";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { GoTrueError } from "../auth/gotrue_error.ts";
import type { VerifiedToken } from "../auth/access_token.ts";
import { type IssueToken, type SessionResponse, sessionResponse } from "../auth/grants.ts";
import { giveBack, takeAttempt } from "../auth/rate_limit.ts";
import { replaceRefreshTokens } from "../auth/sessions.ts";
import { findUserById, UUID } from "../auth/users.ts";
import {
  deleteChallenge,
  deleteUnverifiedFactors,
  type FactorRow,
  findFactor,
  insertChallenge,
  insertFactor,
  listFactors,
  MAX_FACTORS,
  openChallenge,
} from "./factors.ts";
import { CODES_PER_FACTOR, spendStep, takeCodeTurn } from "./limits.ts";
import {
  asBackupCode,
  backupCodesLeft,
  newBackupCodes,
  spendBackupCode,
  storeBackupCodes,
} from "./backup_codes.ts";
import { CODE_REQUIRED_MESSAGE } from "./code_owed.ts";
import { qrSvg } from "./qr_code.ts";
import { matchTotp, newTotpSecret, totpUri } from "./totp.ts";
import { upgradeSession } from "./session_level.ts";

const enrollBody = z.object({
  factor_type: z.string().optional(),
  friendly_name: z.string().max(120).optional(),
  issuer: z.string().max(120).optional(),
});
const verifyBody = z.object({ challenge_id: z.string().optional(), code: z.string().optional() });

const factorNotFound = () => new GoTrueError(404, "mfa_factor_not_found", "Factor not found");
// An unknown challenge, or one that ended after its 5 codes.
const challengeGone = () =>
  new GoTrueError(
    422,
    "mfa_factor_not_found",
    "MFA factor with the provided challenge ID not found",
  );

/**
 * The message of a right code whose 30 s step was already spent (GoTrue's code stays
 * `mfa_verification_failed`); the pages match it (lib/web/auth_messages.ts).
 */
export const CODE_ALREADY_USED = "TOTP code already used: wait for the next code";

/** The message of a backup code that is unknown or already spent (GoTrue's code as a wrong one). */
export const BACKUP_CODE_REFUSED = "Backup code not valid or already used";

/** Where the enrolment's QR code and secret go: shown once, to the user enrolling. */
interface EnrollResponse {
  id: string;
  type: "totp";
  friendly_name: string;
  totp: { qr_code: string; secret: string; uri: string };
  /** The factor's one-time backup codes, shown this once (docs/identity.md, "Backup codes"). */
  backup_codes: string[];
}

/** The `/factors` operations, each for the bearer's verified token. */
export interface MfaService {
  enroll(claims: VerifiedToken, body: unknown): Promise<EnrollResponse>;
  challenge(claims: VerifiedToken, factorId: string): Promise<Record<string, unknown>>;
  verify(claims: VerifiedToken, factorId: string, body: unknown): Promise<SessionResponse>;
  unenroll(claims: VerifiedToken, factorId: string): Promise<{ id: string }>;
  /** New backup codes for the factor (aal2), voiding the unused old ones. */
  replaceBackupCodes(
    claims: VerifiedToken,
    factorId: string,
  ): Promise<{ backup_codes: string[] }>;
  /** How many of the factor's backup codes are unused (aal2). */
  backupCodesLeft(claims: VerifiedToken, factorId: string): Promise<{ remaining: number }>;
}

/** Builds the service around the provider's token signer. */
export function createMfaService(deps: AppDeps, options: { issue: IssueToken }): MfaService {
  const { store, kv, clock } = deps;

  async function ownFactor(claims: VerifiedToken, factorId: string): Promise<FactorRow> {
    const factor = UUID.test(factorId) ? await findFactor(store, claims.id, factorId) : null;
    if (!factor) throw factorNotFound();
    return factor;
  }

  // Backup codes are a second factor's worth: seeing or renewing them needs an aal2 session.
  async function ownFactorAtAal2(claims: VerifiedToken, factorId: string): Promise<FactorRow> {
    const factor = await ownFactor(claims, factorId);
    if (claims.aal !== "aal2") throw new GoTrueError(403, "mfa_required", CODE_REQUIRED_MESSAGE);
    return factor;
  }

  return {
    async enroll(claims, body) {
      const parsed = enrollBody.safeParse(body ?? {});
      if (!parsed.success || parsed.data.factor_type !== "totp") {
        throw new GoTrueError(400, "validation_failed", "factor_type needs to be totp");
      }
      const name = parsed.data.friendly_name?.trim() ?? "";
      // A new enrolment replaces one never confirmed (a reloaded page, a lost QR code).
      await deleteUnverifiedFactors(store, claims.id);
      const factors = await listFactors(store, claims.id);
      if (name && factors.some((f) => f.friendly_name === name)) {
        throw new GoTrueError(
          422,
          "mfa_factor_name_conflict",
          `A factor with the friendly name "${name}" for this user already exists`,
        );
      }
      if (factors.length >= MAX_FACTORS) {
        throw new GoTrueError(
          422,
          "too_many_enrolled_mfa_factors",
          "Maximum number of verified factors reached, unenroll to continue",
        );
      }
      if (factors.length > 0 && claims.aal !== "aal2") {
        throw new GoTrueError(403, "insufficient_aal", "AAL2 required to enroll a new factor");
      }
      const secret = newTotpSecret();
      const issuer = parsed.data.issuer?.trim() || new URL(deps.config.siteUrl).host;
      const uri = totpUri(secret, { issuer, account: claims.email });
      const codes = newBackupCodes();
      const now = clock.now();
      const id = await store.transaction(async (tx) => {
        const id = await insertFactor(tx, { userId: claims.id, friendlyName: name, secret }, {
          now,
        });
        await storeBackupCodes(tx, { userId: claims.id, factorId: id, codes }, { now });
        return id;
      });
      return {
        id,
        type: "totp",
        friendly_name: name,
        totp: { qr_code: await qrSvg(uri), secret, uri },
        backup_codes: codes,
      };
    },

    async challenge(claims, factorId) {
      const factor = await ownFactor(claims, factorId);
      const { id, expiresAt } = await insertChallenge(store, factor.id, { now: clock.now() });
      return { id, type: "totp", expires_at: expiresAt };
    },

    async verify(claims, factorId, body) {
      const factor = await ownFactor(claims, factorId);
      const parsed = verifyBody.safeParse(body ?? {});
      const code = parsed.success ? parsed.data.code?.trim() ?? "" : "";
      const challengeId = parsed.success ? parsed.data.challenge_id ?? "" : "";
      if (!code) throw new GoTrueError(400, "validation_failed", "Code needs to be non-empty");
      const now = clock.now();
      const state = UUID.test(challengeId)
        ? await openChallenge(store, { id: challengeId, factorId: factor.id }, { now })
        : "missing";
      if (state === "missing") throw challengeGone();
      if (state === "expired") {
        await deleteChallenge(store, challengeId);
        throw new GoTrueError(
          422,
          "mfa_challenge_expired",
          `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`,
        );
      }
      // The challenge's turn is taken before the code is checked: its 5 hold under parallel codes,
      // and codes past them touch nothing else (no contention on the factor's count).
      const turn = await takeCodeTurn(kv, challengeId);
      if (!turn.allowed) {
        await deleteChallenge(store, challengeId);
        throw challengeGone();
      }
      const attempt = await takeAttempt(kv, [{ limit: CODES_PER_FACTOR, subject: factor.id }], {
        clock,
      });
      if (!attempt.allowed) {
        throw new GoTrueError(429, "over_request_rate_limit", "Request rate limit reached", {
          "Retry-After": String(attempt.retryAfterS),
        });
      }
      // A backup code stands in for a TOTP code, only once the factor was confirmed with one;
      // the factor it belongs to is the one that raises the session.
      const backup = factor.status === "verified" ? asBackupCode(code) : null;
      let raisedBy = factor.id;
      if (backup) {
        const owner = await spendBackupCode(store, claims.id, { code: backup, now });
        if (!owner) {
          if (turn.last) await deleteChallenge(store, challengeId);
          throw new GoTrueError(422, "mfa_verification_failed", BACKUP_CODE_REFUSED);
        }
        raisedBy = owner;
      }
      const step = backup ? 0 : matchTotp(factor.secret ?? "", code, { nowMs: now });
      if (!backup && (step === null || !(await spendStep(kv, factor.id, step)))) {
        if (turn.last) await deleteChallenge(store, challengeId);
        // A right code already spent (signing in twice within its 30 s) is told apart, so the
        // page can say to wait for the next code rather than that the code is wrong.
        throw new GoTrueError(
          422,
          "mfa_verification_failed",
          step === null ? "Invalid TOTP code entered" : CODE_ALREADY_USED,
        );
      }
      await giveBack(kv, attempt, { uncount: [CODES_PER_FACTOR] });
      if (!claims.sessionId) {
        throw new GoTrueError(
          403,
          "session_not_found",
          "Session from session_id claim in JWT does not exist",
        );
      }
      const session = { userId: claims.id, sessionId: claims.sessionId };
      const refreshToken = await store.transaction(async (tx) => {
        await upgradeSession(tx, { ...session, factorId: raisedBy, challengeId }, { now });
        return await replaceRefreshTokens(tx, session, { now });
      });
      const user = await findUserById(store, claims.id);
      if (!user) {
        throw new GoTrueError(403, "user_not_found", "User from sub claim in JWT does not exist");
      }
      return await sessionResponse(store, user, {
        issue: options.issue,
        session: { ...session, refreshToken, aal: "aal2" },
        method: claims.method ?? "password",
        now,
      });
    },

    async unenroll(claims, factorId) {
      const factor = await ownFactor(claims, factorId);
      if (factor.status === "verified" && claims.aal !== "aal2") {
        throw new GoTrueError(422, "insufficient_aal", "AAL2 required to unenroll verified factor");
      }
      await store.transaction(async (tx) => {
        await tx.query(`delete from auth.mfa_factors where id = $1`, [factor.id]);
        // Sessions raised by this factor fall back to a password's level.
        await tx.query(
          `update auth.sessions set aal = 'aal1', factor_id = null where factor_id = $1`,
          [factor.id],
        );
      });
      return { id: factor.id };
    },

    async replaceBackupCodes(claims, factorId) {
      const factor = await ownFactorAtAal2(claims, factorId);
      const codes = newBackupCodes();
      await store.transaction(async (tx) => {
        await storeBackupCodes(tx, { userId: claims.id, factorId: factor.id, codes }, {
          now: clock.now(),
        });
      });
      return { backup_codes: codes };
    },

    async backupCodesLeft(claims, factorId) {
      const factor = await ownFactorAtAal2(claims, factorId);
      return { remaining: await backupCodesLeft(store, factor.id) };
    },
  };
}
