/**
 * The broker's address as --stream gives it (nats://HOST:PORT, or a comma-separated list of a cluster's
 * servers: nats://A:P,nats://B:P,…), checked before anything connects. Apart from
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

/** The servers of a --stream list (comma-separated nats:// URLs), as the NATS client takes them, or an Error. */
export function natsServers(list: string): string[] | Error {
  const urls = list.split(',').map((u) => u.trim()).filter((u) => u.length > 0)
  if (urls.length === 0) return new Error('no nats:// URL given')
  const servers: string[] = []
  for (const url of urls) {
    const server = natsServer(url)
    if (server instanceof Error) return server
    servers.push(server)
  }
  return servers
}
