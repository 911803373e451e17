/**
 * Each major region's main streaming services, kept in the repository so the first user of a new
 * instance can choose services before any movie's providers are stored (GET /api/providers falls
 * back to these while the store knows none for the region; docs/availability.md).
 *
 * Where the ids, names and logo paths come from: TMDB's own API reference, the example answer of
 * `GET /3/watch/providers/movie` (operation `watch-providers-movie-list`, its
 * `responses.200…examples.Result.value`), copied unchanged: `provider_id`, `provider_name`
 * (trimmed) and `logo_path`. That reference is TMDB's OpenAPI document as vendored in
 * dtoro97/tmdb-client @ 9226819bd538bfa467f9bfcd0efcd23b37677f0d (`tmdb-api.json`), the same
 * document tests/fixtures/tmdb/SOURCES.md takes movie 550's watch providers from. Cross-checked:
 * the ids of Netflix (8), Amazon Prime Video (9 in US, GB, DE, AT, JP; 119 elsewhere), Disney
 * Plus (337), Apple TV Plus (350), Hulu (15) and Paramount Plus (531) and their logo paths agree
 * with movie 550's `/3/movie/550/watch/providers` example in the same document.
 *
 * Which services: of those TMDB lists for the region (its `display_priorities` name the region),
 * subscription, free and with-ads services only, at most 8, in TMDB's display order for the
 * region. Left out: stores that rent and buy (Apple TV, Google Play Movies, Amazon Video,
 * Microsoft Store, Rakuten TV, Chili, Sky Store, YouTube), channels sold inside another service
 * (Amazon, Apple TV and Roku channels), tiers and variants of one service (Netflix Kids, Netflix
 * basic with Ads, Peacock Premium, Crave Starz, Filmin Plus, HBO Max Free), live-TV bundles
 * (fuboTV), and services TMDB has since listed under another id or merged away (HBO Max 384,
 * now "Max"/"HBO Max" 1899; Star Plus, merged into Disney Plus; Voot and Jio Cinema), since a
 * choice of a retired id would never match a stored offer. The names are the reference's; once
 * the region's movies have stored providers, those (with TMDB's current names) replace this list.
 */
import type { RegionProvider } from "./provider_catalog.ts";

// provider_id: [provider_name, logo_path], as TMDB's reference lists them.
const PROVIDERS: Readonly<Record<number, readonly [name: string, logoPath: string]>> = {
  8: ["Netflix", "/t2yyOv40HZeVlLjYsCsPHnWLk4W.jpg"],
  9: ["Amazon Prime Video", "/emthp39XA2YScoYL1p0sdbAH2WA.jpg"],
  15: ["Hulu", "/zxrVdFjIjLqkfnwyghnfywTn3Lh.jpg"],
  21: ["Stan", "/rDd7IEBnJB0gPagFvagP1kK3pDu.jpg"],
  29: ["Sky Go", "/fBHHXKC34ffxAsQvDe0ZJbvmTEQ.jpg"],
  30: ["WOW", "/MiVcYLkztM6qqLeVSYWHFCUcXx.jpg"],
  38: ["BBC iPlayer", "/zY5SmHyAy1CoA3AfQpf58QnShnw.jpg"],
  39: ["Now TV", "/y7mZSw1FV99yfawxOISBQTvtJxM.jpg"],
  47: ["Looke", "/mPDlxHokGsEc84OOhp9qjeynq2U.jpg"],
  56: ["OCS Go", "/riPZYc1ILIbubFaxYSdVfc7K6bm.jpg"],
  62: ["Atres Player", "/9dielJNGTSKO7Lp6NKAuNOLw2jP.jpg"],
  63: ["Filmin", "/gqdajHmtr6qtutL7kkmEgleGfV9.jpg"],
  67: ["Blim", "/egNBibGpNroklenRFE0EiRYZqaf.jpg"],
  72: ["Videoland", "/klcjoULUsj7MBZJW8vMSgQgAcvM.jpg"],
  76: ["Viaplay", "/cvl65OJnz14LUlC3yGK1KHj8UYs.jpg"],
  84: ["U-NEXT", "/npg1OiBidQSndMsBZwgEPOYU6Jq.jpg"],
  97: ["Watcha", "/vXXZx0aWQtDv2klvObNugm4dQMN.jpg"],
  103: ["All 4", "/kJ9GcmYk5zJ9nJtVX8XjDo9geIM.jpg"],
  119: ["Amazon Prime Video", "/emthp39XA2YScoYL1p0sdbAH2WA.jpg"],
  122: ["Hotstar", "/7Fl8ylPDclt3ZYgNbW2t7rbZE9I.jpg"],
  134: ["Foxtel Now", "/3WZ89RECN5CVhbfYATBNuQCOZVH.jpg"],
  146: ["iciTouTV", "/366UvWIQMqvKI6SyinCmvQx2B2j.jpg"],
  147: ["Sixplay", "/ppycrWdkR3pefMYYK79e481PULm.jpg"],
  149: ["Movistar Plus", "/4ywRQTLYJk8CjroNX4FbCBDQZTr.jpg"],
  150: ["blue TV", "/rVOOhp6V8FheEAKtFAJMLMbnaMZ.jpg"],
  167: ["Claro video", "/lJT7r1nprk1Z8t1ywiIa8h9d3rc.jpg"],
  207: ["The Roku Channel", "/z0h7mBHwm5KfMB2MKeoQDD2ngEZ.jpg"],
  222: ["Rai Play", "/s1QWuiBbZhLGSFzYOglPTVye7td.jpg"],
  230: ["Crave", "/gJ3yVMWouaVj6iHd59TISJ1TlM5.jpg"],
  232: ["Zee5", "/ajbCmwvZ8HiePHZaOVEgm9MzyuA.jpg"],
  236: ["France TV", "/3L9ReVOwpiWgKyBw9ApkrDUWepy.jpg"],
  237: ["Sony Liv", "/odTur9CmVtzsRUAZ9910tPM4XwL.jpg"],
  258: ["Criterion Channel", "/4TJTNWd2TT1kYj6ocUEsQc8WRgr.jpg"],
  273: ["Neon TV", "/od4YNSSLgOP3p8EtQTnEYfrPa77.jpg"],
  297: ["Ziggo TV", "/8ARqfv7c3eD48NxHfjdNdoop1b0.jpg"],
  298: ["RTL+", "/3hI22hp7YDZXyrmXVqDGnVivNTI.jpg"],
  304: ["Joyn", "/kTpJjBn08IBluCPpFQekU9qdwRt.jpg"],
  307: ["Globoplay", "/oBoWstXQFHAlPApyxIQ31CIbNQk.jpg"],
  311: ["Be TV Go", "/pq8p1umEnJjdFAP1nFvNArTR61X.jpg"],
  312: ["VRT MAX", "/5HnddgKqiSLyEBriPB7T1BpdFaC.jpg"],
  313: ["Yelo Play", "/vjsvYNPgq6BpUoubXR1wNkokoBb.jpg"],
  323: ["Yle Areena", "/jH5dm7aqU9DxS4yPfprz6e3jmHU.jpg"],
  337: ["Disney Plus", "/7rwgEs15tFwyR9NPQ5vpzxTj19Q.jpg"],
  338: ["Ruutu", "/cZkT6PrmJs5mfVscQf2PNF7xrF.jpg"],
  350: ["Apple TV Plus", "/6uhKBfmtzFqOcLousHwZuzcrScK.jpg"],
  356: ["wavve", "/2ioan5BX5L9tz4fIGU93blTeFhv.jpg"],
  359: ["Mediaset Infinity", "/momeaLkz4UT49Z7hUs8dppzn6rP.jpg"],
  360: ["NPO Start", "/73igBrpTdAhEGwuYxhmnhTK5Srs.jpg"],
  381: ["Canal+", "/hGvUo8KZTRLDZWcfFJS3gA8aenB.jpg"],
  383: ["TV 2", "/yBrCoCGMIiHPHuoyh1mg82Pwlhx.jpg"],
  385: ["BINGE", "/d3ixI1no0EpTj2i7u0Sd2DBXVlG.jpg"],
  386: ["Peacock", "/8VCV78prwd9QzZnEm0ReO6bERDa.jpg"],
  395: ["TVNZ", "/eCRNttY7Zd75L5syA52AF8rCEuq.jpg"],
  442: ["NRK TV", "/y1PDXoEMqReA1uX1aF8rnVgSYBS.jpg"],
  457: ["VIX", "/58aUMVWJRolhWpi4aJCkGHwfKdg.jpg"],
  461: ["RTBF", "/qw1BwnbWKs7AXLVR05eRpi3YdD9.jpg"],
  505: ["Player", "/uXc2fJqhtXfuNq6ha8tTLL9VnXj.jpg"],
  531: ["Paramount Plus", "/xbhHHa1YgtpwhC8lb1NQ3ACVcLd.jpg"],
  541: ["rtve", "/f3RCRmZWiUzg2CjxUqWJ881WmcS.jpg"],
  691: ["Play Suisse", "/wKAPdeGjoejE3pPZp3RdElIbfl7.jpg"],
  1773: ["SkyShowtime", "/iieEQVJIEOSfDj477zG8sSTtr25.jpg"],
};

const REGIONS: Readonly<Record<string, readonly number[]>> = {
  AR: [8, 337, 119, 350, 531],
  AT: [8, 9, 337, 350, 29],
  AU: [8, 119, 337, 385, 531, 134, 21, 350],
  BE: [8, 337, 119, 311, 312, 350, 313, 461],
  BR: [8, 337, 119, 47, 531, 350, 307],
  CA: [8, 337, 119, 230, 350, 531, 146, 258],
  CH: [8, 119, 337, 150, 691],
  DE: [8, 9, 337, 350, 30, 29, 304, 298],
  DK: [8, 337, 119, 76, 383, 531, 350],
  ES: [8, 119, 337, 350, 63, 149, 62, 541],
  FI: [8, 337, 119, 76, 323, 338, 531, 350],
  FR: [8, 119, 337, 381, 56, 350, 147, 236],
  GB: [8, 337, 9, 350, 531, 103, 29, 38],
  IE: [8, 119, 337, 350, 531, 29],
  IN: [8, 119, 122, 232, 350, 237],
  IT: [8, 119, 337, 350, 29, 39, 359, 222],
  JP: [8, 15, 337, 84, 9, 350],
  KR: [8, 119, 337, 356, 97, 350],
  MX: [8, 119, 337, 350, 531, 167, 67, 457],
  NL: [8, 337, 119, 76, 297, 72, 350, 360],
  NO: [8, 337, 119, 76, 350, 531, 442],
  NZ: [8, 119, 273, 337, 350, 395],
  PL: [8, 350, 119, 337, 505, 1773],
  SE: [8, 337, 119, 76, 531, 350],
  US: [8, 9, 337, 350, 15, 386, 531, 207],
};

/** The regions this list covers, in alphabetical order. */
export const MAJOR_PROVIDER_REGIONS: readonly string[] = Object.keys(REGIONS).sort();

/** `region`'s main services from the list (`movies: 0`, logos at w92), or [] when it has none. */
export function majorProviders(region: string, imageBaseUrl: string): RegionProvider[] {
  return (REGIONS[region] ?? []).map((id) => {
    const [name, logoPath] = PROVIDERS[id];
    return { id, name, logo: `${imageBaseUrl}/w92${logoPath}`, movies: 0 };
  });
}
