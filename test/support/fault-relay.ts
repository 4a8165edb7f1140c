/**
 * A fault-injecting relay between a follower and its sequencer, on an ephemeral loopback port: JSON-RPC POSTs
 * are passed through untouched; each flashblock stream subscription (`/flashblocks?…`) is relayed from a
 * subscription of its own to the sequencer with the same query, and each message, by a seeded generator,
 * is dropped, sent twice, held back behind the next one (reordered), or delayed a few milliseconds.
 * Chance alone can leave a kind of fault out of a run, or put it where the follower never sees it as that
 * kind (a duplicate of a message that itself opened a gap), so the first messages follow a fixed schedule:
 * one fault of each kind in a stream otherwise in step, then the seeded generator takes over. Every run
 * thus shows a duplicate ignored and a gap resumed. Counts what it did, so a test can show the faults happened.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestContext } from 'node:test'
import WebSocket, { WebSocketServer } from 'ws'
import type { Rng } from './rng.ts'

export interface FaultRates {
  readonly drop: number
  readonly duplicate: number
  readonly reorder: number
  readonly delay: number
}

export interface FaultRelay {
  readonly url: string
  readonly done: { relayed: number; dropped: number; duplicated: number; reordered: number; delayed: number; subscriptions: number }
  /**
   * Ends the faults: a message held back is sent now and every later one passes as it comes. A follower
   * learns of a message lost at the very end only from the next one, as it would from the sequencer's next
   * flashblock, so a test calms the relay and then has the sequencer publish once more.
   */
  calm(): void
}

type Fault = 'drop' | 'duplicate' | 'reorder' | 'delay'

/** The relayed messages (counted over the relay's life, from 1) that carry a scheduled fault; none other up to the last. */
const SCHEDULE: ReadonlyMap<number, Fault> = new Map([[3, 'duplicate'], [6, 'delay'], [9, 'reorder'], [12, 'drop']])
const SCHEDULED = 12

export async function startFaultRelay(t: TestContext, upstream: string, rng: Rng, rates: FaultRates): Promise<FaultRelay> {
  const done = { relayed: 0, dropped: 0, duplicated: 0, reordered: 0, delayed: 0, subscriptions: 0 }
  let calmed = false
  const releases = new Set<() => void>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) })
        .then(async (r) => {
          res.writeHead(r.status, { 'content-type': 'application/json' })
          res.end(Buffer.from(await r.arrayBuffer()))
        })
        .catch(() => {
          res.writeHead(502)
          res.end()
        })
    })
  })
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false })
  server.on('upgrade', (req, socket, head) => {
    wss.handleUpgrade(req, socket, head, (down) => {
      done.subscriptions++
      const up = new WebSocket(`${upstream.replace(/^http/, 'ws').replace(/\/$/, '')}${req.url ?? '/flashblocks'}`, { perMessageDeflate: false })
      let held: Buffer | undefined
      const send = (data: Buffer): void => {
        if (down.readyState === WebSocket.OPEN) down.send(data, { binary: false })
      }
      const release = (): void => {
        if (held !== undefined) send(held)
        held = undefined
      }
      releases.add(release)
      const pick = (): Fault | undefined => {
        if (calmed) return undefined
        if (done.relayed <= SCHEDULED) return SCHEDULE.get(done.relayed)
        if (rng.chance(rates.drop)) return 'drop'
        if (held === undefined && rng.chance(rates.reorder)) return 'reorder'
        if (rng.chance(rates.delay)) return 'delay'
        return rng.chance(rates.duplicate) ? 'duplicate' : undefined
      }
      up.on('message', (data: Buffer) => {
        done.relayed++
        const fault = pick()
        if (fault === 'drop') {
          done.dropped++
          return
        }
        if (fault === 'reorder') {
          done.reordered++
          held = data
          return
        }
        if (fault === 'delay') {
          done.delayed++
          const later = held
          held = undefined
          setTimeout(() => {
            send(data)
            if (later !== undefined) send(later)
          }, 1 + rng.int(5))
          return
        }
        send(data)
        if (fault === 'duplicate') {
          done.duplicated++
          send(data)
        }
        release()
      })
      up.on('close', (code, reason) => {
        if (down.readyState === WebSocket.OPEN) down.close(code >= 4000 && code < 5000 ? code : 1001, reason.toString())
      })
      up.on('error', () => down.terminate())
      down.on('close', () => {
        releases.delete(release)
        up.terminate()
      })
      down.on('error', () => up.terminate())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.after(async () => {
    for (const c of wss.clients) c.terminate()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  const calm = (): void => {
    calmed = true
    for (const release of releases) release()
  }
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, done, calm }
}
