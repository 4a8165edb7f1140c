/**
 * Crash points for the crash-safety test: with FLASHNODE_FAILPOINT=<name>:<n> in the environment, the
 * process kills itself (SIGKILL, as a power cut would) the n-th time it reaches <name>. Unset, `failpoint`
 * is a string comparison and nothing else.
 *
 * Names: flashblock:after-journal (journaled, not yet published), seal:before-commit (block built, not
 * written), seal:after-commit (written, next block not yet opened).
 */

const spec = process.env.FLASHNODE_FAILPOINT
const [armedName, armedCount] = spec === undefined ? [undefined, 0] : [spec.split(':').slice(0, -1).join(':'), Number(spec.split(':').at(-1))]
let reached = 0

export function failpoint(name: string): void {
  if (armedName !== name) return
  reached += 1
  if (reached >= armedCount) process.kill(process.pid, 'SIGKILL')
}
