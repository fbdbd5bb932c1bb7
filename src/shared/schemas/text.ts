/**
 * Control and format characters (including bidirectional overrides such as U+202E) have no
 * place in a person's or employer's name: they can make one name display as another.
 */
export const INVISIBLE_CHARACTERS = /[\p{Cc}\p{Cf}]/u;

export const hasNoInvisibleCharacters = (value: string) => !INVISIBLE_CHARACTERS.test(value);
