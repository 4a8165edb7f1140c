/**
 * Creating a replicated stream or key-value bucket on a cluster whose meta group does not know all its
 * servers yet (a cluster just started, or a server just back) is refused with "no suitable peers for
 * placement": the one refusal of a creation worth asking again, within the caller's bound. The fenced
 * publisher's stream and the lease's bucket are created through it. Anything else is the caller's to map.
 */

const PLACEMENT_RETRY_MS = 100

/** Whether the broker refused a creation only because it cannot place the replicas yet. */
export const isPlacementPending = (err: unknown): boolean => err instanceof Error && /no suitable peers/i.test(err.message)

/** Runs `create`, again while the cluster cannot place the replicas yet, until `untilMs` (performance.now()). */
export async function whilePlacing<T>(create: () => Promise<T>, untilMs: number): Promise<T> {
  for (;;) {
    try {
      return await create()
    } catch (err) {
      if (!isPlacementPending(err) || performance.now() >= untilMs) throw err
      await new Promise((resolve) => setTimeout(resolve, PLACEMENT_RETRY_MS))
    }
  }
}
