/**
 * The field for an authenticator app's 6-digit code (the sign-in code step, the reset page), or,
 * with `backup`, for one of the 10-character backup codes (docs/identity.md, "Backup codes"):
 * the same field and the same verify call, only a keyboard with letters.
 */
export function CodeField(
  { id, value, onInput, backup = false }: {
    id: string;
    value: string;
    onInput: (value: string) => void;
    backup?: boolean;
  },
) {
  return (
    <div class="field">
      <label for={id}>
        {backup ? "One of your backup codes" : "The 6-digit code of your authenticator app"}
      </label>
      <input
        id={id}
        inputMode={backup ? "text" : "numeric"}
        autocomplete={backup ? "off" : "one-time-code"}
        autocapitalize={backup ? "characters" : undefined}
        spellcheck={false}
        pattern={backup ? "[A-Za-z0-9 \\-]{10,14}" : "[0-9]{6}"}
        maxLength={backup ? 14 : 6}
        required
        autofocus
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </div>
  );
}
