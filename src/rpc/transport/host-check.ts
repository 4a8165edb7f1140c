/**
 * Host header check (DNS-rebinding defence), as geth's virtual-host filter does it.
 *
 * A request is allowed when its Host header (port removed, compared case-insensitively) is an IP literal,
 * or is in the allowed list (default: `localhost`), or the list holds `*`. A missing Host header (HTTP/1.0)
 * is allowed: browsers, the attack vector, always send one. Pure functions; used by HTTP and WebSocket.
 */

import { isIP } from 'node:net'

export const DEFAULT_ALLOWED_HOSTS: readonly string[] = Object.freeze(['localhost'])

/** The host name of a Host header value: `[::1]:8545` → `::1`, `Example.com:80` → `example.com`. */
export function hostName(header: string): string {
  const value = header.trim().toLowerCase()
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    return end < 0 ? value : value.slice(1, end)
  }
  const colon = value.indexOf(':')
  // More than one colon without brackets: a bare IPv6 literal, not host:port.
  if (colon < 0 || value.indexOf(':', colon + 1) >= 0) return value
  return value.slice(0, colon)
}

export function isHostAllowed(header: string | undefined, allowedHosts: readonly string[] = DEFAULT_ALLOWED_HOSTS): boolean {
  if (header === undefined || header === '') return true
  const name = hostName(header)
  if (isIP(name) !== 0) return true
  for (const allowed of allowedHosts) {
    if (allowed === '*' || allowed.toLowerCase() === name) return true
  }
  return false
}
