/** One value or an array of them (how Fastify takes a route's hooks and methods) as an array. */
export function asArray<T>(value: T | readonly T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...(value as readonly T[])] : [value as T];
}

/** True when every method a route answers only reads (GET, HEAD): such a request changes nothing. */
export function readsOnly(route: { method: string | readonly string[] }): boolean {
  return asArray(route.method).every((method) => method === 'GET' || method === 'HEAD');
}
