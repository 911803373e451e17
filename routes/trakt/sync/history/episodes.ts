/** GET /trakt/sync/history/episodes: movies only here, so always empty (docs/trakt.md, "Reads"). */
import { emptyTraktList } from "@/lib/http/trakt_read.ts";

export const handler = emptyTraktList;
