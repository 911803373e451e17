/**
 * The media servers' readers and the event date, without HTTP (docs/connections.md): what each
 * recorded payload says, read field by field.
 */
import assert from "node:assert/strict";
import { eventDate } from "../lib/connections/webhooks/apply.ts";
import { readEmby } from "../lib/connections/webhooks/emby.ts";
import { readGeneric } from "../lib/connections/webhooks/generic.ts";
import { readJellyfin } from "../lib/connections/webhooks/jellyfin.ts";
import { plexAccount, readPlex } from "../lib/connections/webhooks/plex.ts";
import { payloads } from "./helpers/webhooks.ts";

Deno.test("Plex: the tmdb:// Guid, the legacy agent's guid, the title and year, the account", () => {
  const scrobble = payloads.plexScrobble();
  assert.deepEqual(readPlex(scrobble), {
    action: "watch",
    event: "media.scrobble",
    movie: { tmdbId: 6978, title: "Big Trouble in Little China", year: 1986 },
  });
  assert.equal(plexAccount(scrobble), "title");
  const metadata = scrobble.Metadata as Record<string, unknown>;
  delete metadata.Guid;
  assert.equal(readPlex(scrobble).movie.tmdbId, undefined);
  metadata.guid = "com.plexapp.agents.themoviedb://6978?lang=en";
  assert.equal(readPlex(scrobble).movie.tmdbId, 6978);
  metadata.guid = "com.plexapp.agents.imdb://tt0090728?lang=en";
  assert.equal(readPlex(scrobble).movie.tmdbId, undefined);
});

Deno.test("Plex: media.rate's top-level rating, half stars rounded, 0 clears, out of range ignored", () => {
  const rate = payloads.plexRate();
  assert.deepEqual(readPlex(rate), {
    action: "rate",
    event: "media.rate",
    movie: { tmdbId: 6978, title: "Big Trouble in Little China", year: 1986 },
    rating: 5,
  });
  rate.rating = 7.5;
  assert.equal((readPlex(rate) as { rating: number }).rating, 8);
  rate.rating = 0;
  assert.equal((readPlex(rate) as { rating: null }).rating, null);
  rate.rating = 11;
  assert.equal((readPlex(rate) as { reason: string }).reason, "invalid_rating");
});

Deno.test('Jellyfin: JSON booleans and the templates\' "True"/"False" both read', () => {
  const stop = payloads.jellyfinStop();
  assert.deepEqual(readJellyfin(stop), {
    action: "watch",
    event: "PlaybackStop",
    movie: { tmdbId: 593643, title: "The Menu", year: 2022 },
    at: "2023-01-04T06:36:12.853591Z",
  });
  stop.PlayedToCompletion = "True";
  assert.equal(readJellyfin(stop).action, "watch");
  stop.PlayedToCompletion = "False";
  assert.deepEqual((readJellyfin(stop) as { reason: string }).reason, "not_finished");
  const saved = payloads.jellyfinSaved();
  assert.equal(readJellyfin(saved).action, "watch");
  saved.Played = "false";
  assert.equal((readJellyfin(saved) as { reason: string }).reason, "not_finished");
});

Deno.test("Emby: Item.ProviderIds.Tmdb, ProductionYear and Date; item.markplayed needs no PlaybackInfo", () => {
  const stop = payloads.embyStop();
  assert.deepEqual(readEmby(stop), {
    action: "watch",
    event: "playback.stop",
    movie: { tmdbId: 302946, title: "The Accountant", year: 2016 },
    at: "2025-06-06T21:47:12.4410293Z",
  });
  stop.Event = "item.markplayed";
  delete stop.PlaybackInfo;
  assert.equal(readEmby(stop).action, "watch");
  stop.Event = "playback.start";
  assert.equal((readEmby(stop) as { reason: string }).reason, "unsupported_event");
});

Deno.test("generic: a TMDB id or a title; a rating 1-10 only", () => {
  assert.deepEqual(readGeneric({ tmdbId: "550", rating: 10 }), {
    action: "watch",
    event: "watched",
    movie: { tmdbId: 550, title: undefined, year: undefined },
    at: undefined,
    rating: 10,
  });
  assert.equal(readGeneric({ title: "Fight Club", year: "1999" }).movie.year, 1999);
  assert.equal(
    (readGeneric({ tmdbId: 550, rating: 0 }) as { reason: string }).reason,
    "invalid_rating",
  );
  assert.equal((readGeneric({ year: 1999 }) as { reason: string }).reason, "no_movie");
});

Deno.test("a TMDB id is a whole number from 1 to 2147483647 on every reader; anything else sent is an invalid id", () => {
  const generic = (tmdbId: unknown) => readGeneric({ tmdbId }).movie;
  assert.deepEqual(generic(2147483647), { tmdbId: 2147483647, title: undefined, year: undefined });
  assert.deepEqual(generic("2147483647").tmdbId, 2147483647);
  assert.deepEqual(generic(1).tmdbId, 1);
  for (const bad of [2147483648, "2147483648", 0, "0", -3, 1.5, "12a", true, "99999999999"]) {
    assert.deepEqual(
      generic(bad),
      { invalidId: true, title: undefined, year: undefined },
      `${bad}`,
    );
  }
  for (const none of [undefined, null, "", "  "]) {
    assert.deepEqual(generic(none), {
      title: undefined,
      year: undefined,
    });
  }
  // An invalid id is still a movie named: the receiver answers unmatched, not no_movie.
  assert.equal(readGeneric({ tmdbId: 2147483648 }).action, "watch");
  const emby = payloads.embyStop();
  ((emby.Item as Record<string, unknown>).ProviderIds as Record<string, unknown>).Tmdb =
    "2147483648";
  assert.equal(readEmby(emby).movie.invalidId, true);
  const jellyfin = payloads.jellyfinStop();
  jellyfin.Provider_tmdb = 2147483648;
  assert.equal(readJellyfin(jellyfin).movie.invalidId, true);
  jellyfin.Provider_tmdb = "2147483647";
  assert.equal(readJellyfin(jellyfin).movie.tmdbId, 2147483647);
  const plex = payloads.plexScrobble();
  (plex.Metadata as Record<string, unknown>).Guid = [{ id: "tmdb://2147483648" }];
  assert.equal(readPlex(plex).movie.invalidId, true);
  (plex.Metadata as Record<string, unknown>).Guid = [{ id: "tmdb://2147483647" }];
  assert.equal(readPlex(plex).movie.tmdbId, 2147483647);
});

Deno.test("NUL characters are dropped from every text a reader takes, as the history import drops them", () => {
  const jellyfin = payloads.jellyfinStop();
  jellyfin.Name = "The\u0000 Menu";
  jellyfin.NotificationType = "Playback\u0000Stop";
  assert.deepEqual(readJellyfin(jellyfin).movie.title, "The Menu");
  assert.equal(readJellyfin(jellyfin).event, "PlaybackStop");
  assert.equal(readGeneric({ title: "\u0000" }).action, "ignore");
  assert.equal(readGeneric({ title: "Fight\u0000 Club" }).movie.title, "Fight Club");
});

Deno.test("the event date: its UTC day from 1874 to tomorrow, else the day it arrives", () => {
  const now = Date.parse("2026-11-28T23:30:00Z");
  assert.equal(eventDate("2026-11-28T23:59:00-05:00", now), "2026-11-29");
  assert.equal(eventDate("2026-11-30T00:00:00Z", now), "2026-11-28");
  assert.equal(eventDate("1873-12-31T00:00:00Z", now), "2026-11-28");
  assert.equal(eventDate("1874-01-01T00:00:00Z", now), "1874-01-01");
  assert.equal(eventDate("not a date", now), "2026-11-28");
  assert.equal(eventDate(undefined, now), "2026-11-28");
});
