/** /account's "Sign in with …" section: linked, or the button that links the provider. */
import type { ProviderLink } from "../lib/http/account_provider.ts";
import { LinkProvider } from "../islands.gen.ts";
import { Notice } from "./Notice.tsx";

/** The section, given what lib/http/account_provider.ts read. */
export function ProviderSection({ link }: { link: ProviderLink }) {
  const { name } = link;
  return (
    <section class="auth" aria-labelledby="provider-heading">
      <h2 id="provider-heading">Sign in with {name}</h2>
      {link.justLinked
        ? (
          <p class="notice notice-note" role="status">
            {name} is linked: "Sign in with {name}" opens this account from now on.
          </p>
        )
        : null}
      {link.failure ? <Notice kind="error">{link.failure}</Notice> : null}
      {link.linked
        ? (
          <p class="hint">
            Linked{link.linkedEmail ? ` to ${link.linkedEmail} at ${name}` : ""}: "Sign in with{" "}
            {name}" opens this account.
          </p>
        )
        : (
          <>
            <p class="hint">
              Link your {name} login to this account, and "Sign in with{" "}
              {name}" opens it, whatever email {name} has for you.
            </p>
            <LinkProvider name={name} />
          </>
        )}
    </section>
  );
}
