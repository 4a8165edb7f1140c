/**
 * Lists of byte strings in one transferable buffer, for the seal-hashing worker: a block's transactions and
 * receipts cross to the other thread as a single ArrayBuffer (moved, not copied by structured clone, and not
 * thousands of small objects), and the worker reads them as views of it.
 *
 * Layout: uint32 words [list count, each list's length, each value's length (list by list)], then the values'
 * bytes in the same order.
 */

export function packLists(lists: readonly (readonly Uint8Array[])[]): ArrayBuffer {
  let values = 0
  let bytes = 0
  for (const list of lists) {
    values += list.length
    for (const value of list) bytes += value.length
  }
  const words = 1 + lists.length + values
  const buffer = new ArrayBuffer(words * 4 + bytes)
  const header = new Uint32Array(buffer, 0, words)
  const body = new Uint8Array(buffer, words * 4)
  let w = 0
  let at = 0
  header[w++] = lists.length
  for (const list of lists) header[w++] = list.length
  for (const list of lists) {
    for (const value of list) {
      header[w++] = value.length
      body.set(value, at)
      at += value.length
    }
  }
  return buffer
}

export function unpackLists(buffer: ArrayBuffer): Uint8Array[][] {
  const count = new Uint32Array(buffer, 0, 1)[0]!
  const lengths = new Uint32Array(buffer, 4, count)
  let values = 0
  for (const n of lengths) values += n
  const words = 1 + count + values
  const header = new Uint32Array(buffer, 0, words)
  let w = 1 + count
  let at = words * 4
  const lists: Uint8Array[][] = []
  for (const n of lengths) {
    const list: Uint8Array[] = []
    for (let i = 0; i < n; i++) {
      const length = header[w++]!
      list.push(new Uint8Array(buffer, at, length))
      at += length
    }
    lists.push(list)
  }
  return lists
}
