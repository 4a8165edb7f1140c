/**
 * Whether a request's Accept header asks for HTML: a browser loading a page does (`text/html,…`), a JSON-RPC
 * client, curl (`*\/*`) and a load balancer's health check do not. Only an explicit `text/html` with a
 * quality above zero counts, so every other GET / keeps its JSON answer.
 */

export function acceptsHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false
  for (const range of accept.split(',')) {
    const [media, ...params] = range.split(';').map((part) => part.trim().toLowerCase())
    if (media !== 'text/html') continue
    const q = params.find((p) => p.startsWith('q='))
    if (q === undefined || Number(q.slice(2)) > 0) return true
  }
  return false
}
