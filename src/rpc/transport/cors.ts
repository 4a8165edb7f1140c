/**
 * Cross-origin policy for browsers: CORS headers on HTTP, and the Origin check on WebSocket upgrades
 * (WebSocket is not covered by CORS, so without a check any web page could drive a local node).
 *
 * CORS is off unless origins are configured (`*` allows every origin). Allowed origins are compared
 * case-insensitively, exactly (scheme, host and port). A WebSocket upgrade is accepted when it carries no
 * Origin (not a browser), when its origin is a loopback page (as geth allows `http://localhost`), when it is
 * the page's own origin (scheme http or https, and the same host:port as the upgrade's Host header: the live
 * view the node served itself; another site's page cannot claim it, and the Host check has passed), or when
 * the origin is configured.
 */

import type { IncomingMessage, ServerResponse } from 'node:http'

const ALLOW_METHODS = 'POST, GET, OPTIONS'
const DEFAULT_ALLOW_HEADERS = 'Content-Type'
const MAX_AGE_SECONDS = '600'

export function isOriginAllowed(origin: string, corsOrigins: readonly string[]): boolean {
  const wanted = origin.toLowerCase()
  return corsOrigins.some((allowed) => allowed === '*' || allowed.toLowerCase() === wanted)
}

/** Sets CORS response headers when the request's Origin is allowed. No-op when CORS is off. */
export function applyCors(req: IncomingMessage, res: ServerResponse, corsOrigins: readonly string[] | undefined): void {
  const origin = req.headers.origin
  if (corsOrigins === undefined || corsOrigins.length === 0 || origin === undefined) return
  if (!isOriginAllowed(origin, corsOrigins)) return
  res.setHeader('Access-Control-Allow-Origin', corsOrigins.includes('*') ? '*' : origin)
  res.setHeader('Vary', 'Origin')
  if (req.method === 'OPTIONS') {
    res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS)
    const requested = req.headers['access-control-request-headers']
    res.setHeader('Access-Control-Allow-Headers', typeof requested === 'string' ? requested : DEFAULT_ALLOW_HEADERS)
    res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS)
  }
}

export function isCorsEnabled(corsOrigins: readonly string[] | undefined): boolean {
  return corsOrigins !== undefined && corsOrigins.length > 0
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

export function isWebSocketOriginAllowed(origin: string | undefined, corsOrigins: readonly string[] | undefined, host?: string): boolean {
  if (origin === undefined) return true
  if (corsOrigins !== undefined && isOriginAllowed(origin, corsOrigins)) return true
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  return LOOPBACK_HOSTS.has(url.hostname) || (host !== undefined && url.host === host.toLowerCase())
}
