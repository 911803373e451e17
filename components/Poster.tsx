/** A movie poster, or a placeholder of the same shape when the movie has none. */

/** `src` "" shows the placeholder; images load lazily below the fold. */
export function Poster(
  { src, title, eager = false }: { src: string; title: string; eager?: boolean },
) {
  const name = title || "this movie";
  if (!src) {
    return (
      <div class="poster poster-empty" role="img" aria-label={`No poster for ${name}`}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M4 5h16v14H4zM4 9h16M4 15h16M8 5v14M16 5v14" />
        </svg>
      </div>
    );
  }
  return (
    <img
      class="poster"
      src={src}
      alt={`Poster of ${name}`}
      width={342}
      height={513}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
    />
  );
}
