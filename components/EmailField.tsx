/** The labelled email input of the sign-in, sign-up and reset-link forms. */

/** `id` ties the label to the input; `onInput` gets the new value. */
export function EmailField(
  { id, value, onInput }: { id: string; value: string; onInput: (value: string) => void },
) {
  return (
    <div class="field">
      <label for={id}>Email</label>
      <input
        id={id}
        type="email"
        name="email"
        autocomplete="email"
        required
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </div>
  );
}
