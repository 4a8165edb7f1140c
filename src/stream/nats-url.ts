/**
 * The broker's address as --stream gives it (nats://HOST:PORT), checked before anything connects. Apart from
 * the NATS client, so that a node without a broker never loads it (~50 ms and ~13 MB at every start).
 */

/** A nats:// URL as the NATS client takes it (host:port), or an Error saying what is wrong with it. */
export function natsServer(url: string): string | Error {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return new Error(`not a URL: "${url}"`)
  }
  if (parsed.protocol !== 'nats:') return new Error(`a nats://HOST:PORT URL is needed, got "${url}"`)
  if (parsed.hostname === '') return new Error(`no host in "${url}"`)
  return `${parsed.hostname}:${parsed.port === '' ? '4222' : parsed.port}`
}
