/**
 * "Still fetching details for N films" (docs/catalog.md, "The details job"): under figures that
 * need details (hours, directors, actors, genres) while the details job is filling some films
 * in; nothing once every film has them.
 */

/** The line; nothing when `films` is 0. */
export function DetailsPending({ films }: { films: number }) {
  if (films <= 0) return null;
  const n = films.toLocaleString("en-US");
  return (
    <p class="hint details-pending">
      Still fetching details for {n}{" "}
      {films === 1 ? "film" : "films"}: hours, genres, directors and actors count{" "}
      {films === 1 ? "it" : "them"} once they arrive.
    </p>
  );
}
