/**
 * Real components from Debian's packages (promtool, prometheus, nats-server, haproxy, chromium) for tests:
 * where one is, and, when it is not, the plain reason a test gives for not running (`.ci/run` installs them,
 * so in CI the reason never shows).
 */

import { execFileSync } from 'node:child_process'
import { createServer } from 'node:net'

/** The path of `command` on PATH, or undefined. */
export function findTool(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined
  } catch {
    return undefined
  }
}

/** A test option: skipped, saying which package is missing, when `command` is not installed. */
export function needsTool(command: string, debianPackage: string): { skip: string | false } {
  return { skip: findTool(command) === undefined ? `${command} is not installed (Debian package ${debianPackage}; .ci/run installs it)` : false }
}

/** A loopback port free a moment ago, for a tool that cannot report the port it bound. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
