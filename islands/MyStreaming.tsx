/**
 * "My services" on /account: the region (by country name), the providers of that region as
 * logo checkboxes, and the two switches, saved with PUT /api/me/services. Changing the region
 * loads that region's providers (GET /api/providers, stored data only).
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import { useAction } from "../lib/web/use_action.ts";

/** A provider of the region. */
interface ServiceOption {
  id: number;
  name: string;
  logo: string;
}

/** What the server knew: my settings, my region's providers, every region by name. */
export interface MyServicesProps {
  region: string;
  chosen: number[];
  onlyMine: boolean;
  emailAlerts: boolean;
  providers: ServiceOption[];
  regions: [string, string][];
}

/** The form. */
export default function MyStreaming(props: MyServicesProps) {
  const [region, setRegion] = useState(props.region);
  const [providers, setProviders] = useState(props.providers);
  const [chosen, setChosen] = useState(new Set(props.chosen));
  const [onlyMine, setOnlyMine] = useState(props.onlyMine);
  const [emailAlerts, setEmailAlerts] = useState(props.emailAlerts);
  const { busy, message, setMessage, run } = useAction();

  async function changeRegion(code: string) {
    setRegion(code);
    try {
      const { data } = await api<{ providers: ServiceOption[] }>(
        `/api/providers?region=${encodeURIComponent(code)}`,
      );
      setProviders(data.providers);
    } catch (error) {
      setMessage({ error: true, text: error instanceof ApiError ? error.message : String(error) });
    }
  }

  const toggle = (id: number) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };

  return (
    <form
      class="my-services"
      onSubmit={(event) => {
        event.preventDefault();
        // Never disabled (keyboard focus would fall to the page): a press while saving waits.
        if (busy) return;
        run(async () => {
          try {
            await api("/api/me/services", {
              method: "PUT",
              auth: true,
              body: { region, providers: [...chosen], onlyMine, emailAlerts },
            });
            return { error: false, text: "Saved." };
          } catch (error) {
            return { error: true, text: error instanceof ApiError ? error.message : String(error) };
          }
        });
      }}
    >
      <label>
        Where you watch
        <select
          name="region"
          value={region}
          onChange={(e) => changeRegion((e.target as HTMLSelectElement).value)}
        >
          {props.regions.map(([code, name]) => <option key={code} value={code}>{name}</option>)}
        </select>
      </label>
      <fieldset>
        <legend>Services you subscribe to</legend>
        {providers.length === 0 && (
          <p class="hint">No streaming services are known for this region yet.</p>
        )}
        <ul class="service-choices">
          {providers.map((p) => (
            <li key={p.id}>
              <label class="service-choice">
                <input
                  type="checkbox"
                  name="provider"
                  value={p.id}
                  checked={chosen.has(p.id)}
                  onChange={() => toggle(p.id)}
                />
                {p.logo ? <img src={p.logo} alt="" width={46} height={46} loading="lazy" /> : null}
                <span>{p.name}</span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <label class="switch">
        <input
          type="checkbox"
          name="onlyMine"
          checked={onlyMine}
          onChange={(e) => setOnlyMine((e.target as HTMLInputElement).checked)}
        />
        Recommend only what I can stream
      </label>
      <label class="switch">
        <input
          type="checkbox"
          name="emailAlerts"
          checked={emailAlerts}
          onChange={(e) => setEmailAlerts((e.target as HTMLInputElement).checked)}
        />
        E-mail me when a movie on My List starts streaming on my services
      </label>
      <FormStatus message={message} />
      <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
        {busy ? "Saving…" : "Save my services"}
      </button>
    </form>
  );
}
