/** The field for an authenticator app's 6-digit code (the sign-in code step, the reset page). */
export function CodeField(
  { id, value, onInput }: { id: string; value: string; onInput: (value: string) => void },
) {
  return (
    <div class="field">
      <label for={id}>The 6-digit code of your authenticator app</label>
      <input
        id={id}
        inputMode="numeric"
        autocomplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        autofocus
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </div>
  );
}
