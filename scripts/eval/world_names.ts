/**
 * Names for the generated world: titles, people, keywords and collections, made from short word
 * lists so a world of thousands of films reads like a catalog and every title is unique.
 */
import type { Random } from "./random.ts";

/** TMDB's movie genres, as the catalog stores them. */
export const GENRES = [
  { id: 28, name: "Action" },
  { id: 12, name: "Adventure" },
  { id: 16, name: "Animation" },
  { id: 35, name: "Comedy" },
  { id: 80, name: "Crime" },
  { id: 99, name: "Documentary" },
  { id: 18, name: "Drama" },
  { id: 10751, name: "Family" },
  { id: 14, name: "Fantasy" },
  { id: 36, name: "History" },
  { id: 27, name: "Horror" },
  { id: 10402, name: "Music" },
  { id: 9648, name: "Mystery" },
  { id: 10749, name: "Romance" },
  { id: 878, name: "Science Fiction" },
  { id: 53, name: "Thriller" },
  { id: 10752, name: "War" },
  { id: 37, name: "Western" },
] as const;

/** Original languages with their share of the catalog. */
export const LANGUAGES: readonly [string, number][] = [
  ["en", 0.62],
  ["fr", 0.08],
  ["es", 0.06],
  ["ja", 0.06],
  ["ko", 0.05],
  ["de", 0.04],
  ["it", 0.04],
  ["hi", 0.03],
  ["sv", 0.02],
];

const ADJECTIVES = [
  "Silent",
  "Crimson",
  "Hollow",
  "Golden",
  "Broken",
  "Midnight",
  "Distant",
  "Frozen",
  "Burning",
  "Last",
  "Hidden",
  "Wild",
  "Quiet",
  "Iron",
  "Paper",
  "Velvet",
  "Electric",
  "Lonely",
  "Bitter",
  "Sacred",
  "Savage",
  "Gentle",
  "Northern",
  "Endless",
  "Secret",
  "Fallen",
  "Restless",
  "Pale",
  "Scarlet",
  "Glass",
  "Stolen",
  "Drifting",
  "Final",
  "Sunken",
  "Shining",
  "Lost",
];
const NOUNS = [
  "Harbor",
  "Kingdom",
  "River",
  "Witness",
  "Garden",
  "Signal",
  "Empire",
  "Orchard",
  "Frontier",
  "Mirror",
  "Station",
  "Letter",
  "Voyage",
  "Circus",
  "Horizon",
  "Island",
  "Machine",
  "Promise",
  "Season",
  "Shadow",
  "Tide",
  "Summer",
  "Winter",
  "City",
  "Road",
  "Echo",
  "Storm",
  "Crown",
  "Heart",
  "Hunter",
  "Dancer",
  "Stranger",
  "Engine",
  "Valley",
  "Lantern",
  "Bridge",
  "Fortress",
  "Canyon",
];
const PATTERNS = [
  (a: string, n: string) => `The ${a} ${n}`,
  (a: string, n: string) => `${a} ${n}`,
  (a: string, n: string) => `${n} of the ${a} Sea`,
  (a: string, n: string) => `A ${a} ${n}`,
  (a: string, n: string) => `${n} of ${a} Days`,
  (a: string, n: string) => `${a} ${n}s`,
];
const FIRST_NAMES = [
  "Ada",
  "Bruno",
  "Clara",
  "Dario",
  "Elena",
  "Felix",
  "Greta",
  "Hugo",
  "Ines",
  "Jonas",
  "Kaito",
  "Lena",
  "Marco",
  "Nadia",
  "Oscar",
  "Paula",
  "Quentin",
  "Rosa",
  "Sven",
  "Tara",
  "Umar",
  "Vera",
  "Wim",
  "Xenia",
  "Yusuf",
  "Zoe",
  "Aiko",
  "Bilal",
  "Carmen",
  "Dev",
  "Emil",
  "Farah",
  "Goran",
  "Hana",
  "Ivan",
  "Jin",
  "Kofi",
  "Lucia",
  "Mei",
  "Nils",
];
const LAST_NAMES = [
  "Adler",
  "Brandt",
  "Castillo",
  "Dumont",
  "Eriksen",
  "Fontaine",
  "Garcia",
  "Hartmann",
  "Ito",
  "Jensen",
  "Kowalski",
  "Laurent",
  "Moreau",
  "Nakamura",
  "Okafor",
  "Petrov",
  "Quinn",
  "Rossi",
  "Sato",
  "Tanaka",
  "Ueda",
  "Varga",
  "Weber",
  "Xu",
  "Yilmaz",
  "Zeller",
  "Abbott",
  "Bianchi",
  "Chen",
  "Dubois",
  "Evans",
  "Fischer",
  "Gomez",
  "Horvat",
  "Ibrahim",
  "Kim",
  "Lindqvist",
  "Mendes",
  "Novak",
  "Park",
];
const THEMES = [
  "heist",
  "revenge",
  "time travel",
  "small town",
  "road trip",
  "coming of age",
  "artificial intelligence",
  "haunted house",
  "undercover",
  "survival",
  "first love",
  "conspiracy",
  "space station",
  "dragon",
  "courtroom",
  "boxing",
  "serial killer",
  "high school",
  "family reunion",
  "shipwreck",
  "mafia",
  "alien invasion",
  "dystopia",
  "friendship",
  "betrayal",
  "wedding",
  "island",
  "prison escape",
  "spy",
  "detective",
  "mountain",
  "desert",
  "jazz",
  "ballet",
  "chef",
  "vampire",
  "zombie",
  "robot",
  "pandemic",
  "treasure",
  "pirate",
  "samurai",
  "cowboy",
  "gangster",
  "hacker",
  "journalist",
  "politician",
  "soldier",
  "inventor",
  "painter",
];
const FLAVOURS = [
  "",
  "nocturnal",
  "rural",
  "urban",
  "royal",
  "underground",
  "coastal",
  "arctic",
  "tropical",
  "suburban",
  "medieval",
  "futuristic",
  "wartime",
  "post-war",
  "victorian",
  "nineties",
];

/** A pool of `count` distinct keywords ("heist", "coastal heist", ...). */
export function keywordPool(count: number): string[] {
  const out: string[] = [];
  for (const flavour of FLAVOURS) {
    for (const theme of THEMES) {
      out.push(flavour ? `${flavour} ${theme}` : theme);
      if (out.length === count) return out;
    }
  }
  for (let i = out.length; i < count; i++) out.push(`theme ${i}`);
  return out;
}

/** A pool of `count` distinct person names, shuffled by `random`. */
export function personPool(random: Random, count: number): string[] {
  const out: string[] = [];
  let round = 0;
  while (out.length < count) {
    for (const first of FIRST_NAMES) {
      for (const last of LAST_NAMES) {
        out.push(
          round === 0 ? `${first} ${last}` : `${first} ${String.fromCharCode(65 + round)}. ${last}`,
        );
      }
    }
    round++;
  }
  return random.sample(out, count);
}

/** Unique titles: word patterns first, then a roman numeral for a title already taken. */
export class TitleMaker {
  #taken = new Set<string>();
  constructor(private random: Random) {}

  /** A fresh title. */
  next(): string {
    for (let tries = 0; tries < 20; tries++) {
      const title = this.random.pick(PATTERNS)(
        this.random.pick(ADJECTIVES),
        this.random.pick(NOUNS),
      );
      if (!this.#taken.has(title)) return this.#take(title);
    }
    for (let n = 2;; n++) {
      const title = `${
        this.random.pick(PATTERNS)(this.random.pick(ADJECTIVES), this.random.pick(NOUNS))
      } ${roman(n)}`;
      if (!this.#taken.has(title)) return this.#take(title);
    }
  }

  /** The title of part `n` of a collection starting with `base`. */
  sequel(base: string, n: number): string {
    let title = `${base} ${n}`;
    while (this.#taken.has(title)) title = `${title}'`;
    return this.#take(title);
  }

  #take(title: string): string {
    this.#taken.add(title);
    return title;
  }
}

function roman(n: number): string {
  const table: [number, string][] = [[10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
  let out = "";
  for (const [value, letters] of table) {
    while (n >= value) {
      out += letters;
      n -= value;
    }
  }
  return out;
}
