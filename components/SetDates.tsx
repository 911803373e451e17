/** When the stored recommendation set was made and until when it is kept (recommendations page). */
import { LocalTime } from "./LocalTime.tsx";

/** `fresh` false: made for an older watched list, or past its week. */
export function SetDates(
  { createdAt, expiresAt, fresh }: { createdAt: string; expiresAt: string; fresh: boolean },
) {
  return (
    <div class="set-dates">
      <p>
        Made <LocalTime iso={createdAt} style="moment" />, kept until{" "}
        <LocalTime iso={expiresAt} style="day" />. Coming back to them is free.
      </p>
      {fresh ? null : (
        <p>
          You've watched more since this set was made, or it is past its week. Refresh for a set
          that fits what you've seen (that uses one of today's requests).
        </p>
      )}
    </div>
  );
}
