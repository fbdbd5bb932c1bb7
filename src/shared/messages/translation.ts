/**
 * The shape a translation of an English catalogue area must have: the same keys (none missing,
 * none extra), a string for every string and a function of the same parameters for every
 * function. A Spanish area typed `Translation<typeof en>` fails the type check on any gap.
 */
export type Translation<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => Translation<R>
    : { readonly [K in keyof T]: Translation<T[K]> };
