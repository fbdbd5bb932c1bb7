/** One value or an array of them (how Fastify takes a route's hooks and methods) as an array. */
export function asArray<T>(value: T | readonly T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...(value as readonly T[])] : [value as T];
}
