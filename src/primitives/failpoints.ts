/**
 * Crash points for the crash-safety tests: with FLASHNODE_FAILPOINT=<name>:<n> in the environment, the
 * process kills itself (SIGKILL, as a power cut would) the n-th time it reaches <name>. Unset, a failpoint
 * is a string comparison and nothing else. It lives here, below every layer, because crash points sit in the
 * sequencer and in rpc/ alike.
 *
 * `failpoint` kills on the spot. `failpointAfterAnswer` is for a method handler whose answer is about to be
 * written: it kills once the current turn of the event loop is over (setImmediate), which is after the
 * transport has written the answer to the socket (both HTTP lanes and WebSocket write within the turn the
 * handler resolves in) and before the node does anything else.
 *
 * `failpointStall` is not a crash: the thread that reaches it spins forever without yielding or looking at a
 * clock, as a bug in a long library call would (the test of the execution worker's kill, the backstop behind
 * the EVM's own deadline). A worker thread reads FLASHNODE_FAILPOINT from the environment it was started
 * with.
 *
 * Names:
 *   flashblock:after-journal  a flashblock journaled, not yet published
 *   seal:before-commit        a block built, not written
 *   seal:after-commit         a block written, the next one not yet opened
 *   open:after-journal        an OP block's opening (its deposits) journaled, not yet announced (sequencer.ts)
 *   open:user-deposits-acknowledged  an OP block's opening with user deposits acknowledged by the group's stream,
 *                             its deposits not yet forgotten by their keeper (sequencer.ts)
 *   answer:send-deposit       flashnode_sendDeposit's hash answered (rpc/methods/dev.ts)
 *   subscription:sent         (after the turn) a subscription notification handed to its WebSocket, which
 *                             writes the messages of one run at its end (rpc/subscriptions.ts)
 *   stream:sent               a flashblock stream message handed to a subscriber's WebSocket (stream/publisher.ts)
 *   answer:sync-send          eth_sendRawTransactionSync's receipt answered (rpc/methods/send.ts)
 *   answer:pending-receipt    eth_getTransactionReceipt answered with a pre-confirmed receipt (rpc/methods/receipts.ts)
 *   execution:stall           (failpointStall) an execution worker starting a job (node/execution/worker-main.ts)
 */

const spec = process.env.FLASHNODE_FAILPOINT
const [armedName, armedCount] = spec === undefined ? [undefined, 0] : [spec.split(':').slice(0, -1).join(':'), Number(spec.split(':').at(-1))]
let reached = 0

function due(name: string): boolean {
  if (armedName !== name) return false
  reached += 1
  return reached >= armedCount
}

export function failpoint(name: string): void {
  if (due(name)) process.kill(process.pid, 'SIGKILL')
}

export function failpointAfterAnswer(name: string): void {
  if (due(name)) setImmediate(() => process.kill(process.pid, 'SIGKILL'))
}

export function failpointStall(name: string): void {
  if (!due(name)) return
  for (;;) {
    // spins until the thread is terminated
  }
}
