/**
 * /auth/v1/factors/:id/backup_codes (docs/identity.md, "Backup codes"), both at aal2 (else 403
 * `mfa_required`): POST gives 10 new one-time codes and voids the unused old ones; GET says how
 * many are left (the /account section's count). No supabase-js call exists for either.
 */
import type { Handlers } from "@/lib/http/app_env.ts";
import { gotrueJson } from "@/lib/http/gotrue_response.ts";
import { builtinProvider, gotrueBearer } from "@/lib/http/middleware/builtin_only.ts";

export const handler: Handlers = {
  async GET(c) {
    const provider = builtinProvider(c);
    const claims = await provider.claims(gotrueBearer(c));
    return gotrueJson(c.req.raw, await provider.mfa.backupCodesLeft(claims, c.req.param("id")!));
  },
  async POST(c) {
    const provider = builtinProvider(c);
    const claims = await provider.claims(gotrueBearer(c));
    return gotrueJson(
      c.req.raw,
      await provider.mfa.replaceBackupCodes(claims, c.req.param("id")!),
    );
  },
};
