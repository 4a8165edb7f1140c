/**
 * The JSON value type the formatters produce: what a handler returns and the transport serialises.
 */

export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue }

export type JsonObject = { [key: string]: JsonValue }

/** A copy of `obj` with its keys in sorted order, as geth prints its map-built objects (blocks, receipts). */
export function sortedKeys(obj: JsonObject): JsonObject {
  const out: JsonObject = {}
  for (const key of Object.keys(obj).sort()) out[key] = obj[key]!
  return out
}
