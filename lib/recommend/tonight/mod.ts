/** Tonight: words or filters turned into films for tonight (docs/recommend.md, "Tonight"). */
export { createTonightService, type TonightAnswer, type TonightService } from "./service.ts";
export { type Interpretation, tonightBodySchema } from "./interpretation.ts";
export { MOOD_KEYS, MOODS } from "./moods.ts";
