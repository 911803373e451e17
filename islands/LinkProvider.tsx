/**
 * "Link the identity provider" on /account: supabase-js `linkIdentity`, which asks the built-in
 * provider for the provider's address with this session's token and goes there; the provider's
 * sign-in then attaches to this account, and the browser comes back to /account.
 */
import { FormStatus } from "../components/FormStatus.tsx";
import { supabase } from "../lib/web/supabase.ts";
import { useAction } from "../lib/web/use_action.ts";

/** The provider's name (OIDC_NAME), for the button. */
interface LinkProviderProps {
  name: string;
}

/** The button; the page says whether the account is linked already. */
export default function LinkProvider({ name }: LinkProviderProps) {
  const { busy, message, run } = useAction();
  return (
    <div>
      <FormStatus message={message} />
      <button
        type="button"
        class="button button-secondary"
        aria-disabled={busy ? "true" : undefined}
        onClick={() =>
          busy || run(async () => {
            const { error } = await supabase().auth.linkIdentity({
              // The built-in provider's name for the instance's OpenID Connect provider.
              provider: "oidc" as "google",
              options: { redirectTo: new URL("/account", location.origin).href },
            });
            // Without an error the browser is on its way to the provider.
            return error
              ? { error: true, text: `Linking ${name} could not be started. Please try again.` }
              : null;
          })}
      >
        {busy ? "Please wait…" : `Link ${name}`}
      </button>
    </div>
  );
}
