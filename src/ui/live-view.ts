/**
 * The live view as the node serves it: live-view.html (style and script inline, no build step), read once
 * from beside this module, with the headers it is sent with. Its Content-Security-Policy lets the page run
 * only its own inline script (by the script's SHA-256, computed here from the file) and talk only to the
 * node it came from (`connect-src 'self'`: GET /status and the WebSocket on the same port); nothing loads
 * from elsewhere, and no other page may frame it.
 *
 * It owns no routing: cli/ hands the page to rpc/'s transport, which sends it to a GET / that accepts
 * text/html (http-server.ts).
 */

import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'

export interface StaticPage {
  readonly body: Buffer
  readonly headers: Readonly<Record<string, string>>
}

const PAGE_FILE = new URL('./live-view.html', import.meta.url)

let loaded: StaticPage | undefined

/** The page (read and hashed on first use, then shared). */
export function liveViewPage(): StaticPage {
  return (loaded ??= pageOf(readFileSync(PAGE_FILE, 'utf8')))
}

/** The page `html` with its headers; its inline scripts are allowed by their hashes, nothing else runs. */
export function pageOf(html: string): StaticPage {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`)
  const policy = [
    "default-src 'none'",
    `script-src ${scripts.length === 0 ? "'none'" : scripts.join(' ')}`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
  const body = Buffer.from(html, 'utf8')
  return {
    body,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': String(body.length),
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  }
}
