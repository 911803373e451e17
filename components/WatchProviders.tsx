/**
 * The movie page's "Where to watch" (docs/catalog.md): the region's offers by kind, each
 * provider with its logo, TMDB's page for the region, and the JustWatch credit TMDB's terms
 * ask for. A plain GET form picks another country by name, so it works without JavaScript; its
 * action ends in this section's fragment, so the page comes back scrolled to it. For someone
 * with services chosen, the ones that include the movie come first in their lists, marked
 * "Your service", with a line naming them (docs/availability.md).
 */
import type { WatchProvider, WatchProviders as Offers } from "../lib/catalog/mod.ts";
import { regionChoices, regionName } from "../lib/catalog/region_choice.ts";

const KINDS: { key: keyof Offers; label: string }[] = [
  { key: "flatrate", label: "Stream" },
  { key: "free", label: "Free" },
  { key: "ads", label: "Free with ads" },
  { key: "rent", label: "Rent" },
  { key: "buy", label: "Buy" },
];

// Only the kinds a subscription includes are "mine": renting from a store is not.
const MINE_KINDS = new Set<keyof Offers>(["flatrate", "free", "ads"]);

function Kind(
  { label, providers, mine }: { label: string; providers: WatchProvider[]; mine: Set<string> },
) {
  if (!providers.length) return null;
  // Stable: mine first, each group in TMDB's order.
  const ordered = [
    ...providers.filter((p) => mine.has(p.name)),
    ...providers.filter((p) => !mine.has(p.name)),
  ];
  return (
    <div class="provider-kind">
      <h3>{label}</h3>
      <ul class="providers" aria-label={label}>
        {ordered.map((p, i) => (
          <li
            key={`${i}-${p.name}`}
            class={mine.has(p.name) ? "provider provider-mine" : "provider"}
          >
            {p.logo
              ? <img src={p.logo} alt={p.name} width={46} height={46} loading="lazy" />
              : <span class="provider-logo-missing" aria-hidden="true">{p.name.slice(0, 1)}</span>}
            <span class="provider-name" aria-hidden={p.logo ? "true" : undefined}>{p.name}</span>
            {mine.has(p.name) ? <span class="provider-mine-mark">Your service</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function MineLine({ names, country }: { names: string[]; country: string }) {
  return names.length
    ? (
      <p class="provider-mine-line">
        <strong>On your services:</strong> {names.join(", ")}.
      </p>
    )
    : (
      <p class="provider-mine-line">
        Not included in your services in {country}.{" "}
        <a href="/account#services-heading">Your services</a>
      </p>
    );
}

/**
 * The section; `offers` null when they could not be read (the rest of the page still shows);
 * `mine` the names of the reader's services that include the movie, when they chose some.
 */
export function WatchProviders(
  { offers, region, path, mine }: {
    offers: Offers | null;
    region: string;
    path: string;
    mine?: string[];
  },
) {
  const any = offers && KINDS.some(({ key }) => (offers[key] as WatchProvider[]).length);
  const country = regionName(region);
  const names = new Set((mine ?? []).map((n) => n.trim()));
  const none = new Set<string>();
  return (
    <section class="where-to-watch" id="where-to-watch" aria-labelledby="watch-heading">
      <h2 id="watch-heading">Where to watch in {country}</h2>
      {!offers
        ? <p class="lead">Where to watch can't be loaded right now. Please try again later.</p>
        : any
        ? (
          <>
            {mine ? <MineLine names={[...names]} country={country} /> : null}
            {KINDS.map(({ key, label }) => (
              <Kind
                key={key}
                label={label}
                providers={offers[key] as WatchProvider[]}
                mine={MINE_KINDS.has(key) ? names : none}
              />
            ))}
          </>
        )
        : <p class="lead">No streaming, rental or purchase offers are known in {country}.</p>}
      <form class="region-form" method="get" action={`${path}#where-to-watch`}>
        <label for="watch-region">Country</label>
        <select id="watch-region" name="region" autocomplete="country">
          {regionChoices().map(({ code, name }) => (
            <option key={code} value={code} selected={code === region}>{name}</option>
          ))}
        </select>
        <button type="submit" class="button button-small button-secondary">Show</button>
      </form>
      <p class="attribution">
        Streaming data by <a href="https://www.justwatch.com/" rel="noopener">JustWatch</a>
        {offers?.link
          ? (
            <>
              {" · "}
              <a href={offers.link} rel="noopener">All offers on TMDB</a>
            </>
          )
          : null}
      </p>
    </section>
  );
}
