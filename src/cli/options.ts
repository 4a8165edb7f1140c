/**
 * Command-line options: ONE table holds each option's name, type, default, help text and the commands that
 * take it. Parsing, validation and `--help` are all generated from it, so the help cannot drift from what
 * the parser accepts.
 */

import { parseArgs } from 'node:util'

export type Command = 'start' | 'init' | 'import'

type Kind = 'string' | 'integer' | 'bigint' | 'boolean'

interface OptionSpec {
  readonly kind: Kind
  readonly default?: string | number | bigint | boolean
  readonly help: string
  readonly commands: readonly Command[]
  readonly placeholder?: string
}

const ETHER = 10n ** 18n
const ALL: readonly Command[] = ['start', 'init', 'import']

export const OPTIONS = {
  datadir: { kind: 'string', default: '.flashnode', help: 'data directory (the chain database)', commands: ALL, placeholder: 'DIR' },
  genesis: {
    kind: 'string',
    help: 'geth-format genesis.json for a new data directory (default: the dev chain below)',
    commands: ['start', 'init'],
    placeholder: 'FILE',
  },
  host: { kind: 'string', default: '127.0.0.1', help: 'address the JSON-RPC server listens on', commands: ['start'], placeholder: 'ADDR' },
  port: { kind: 'integer', default: 8545, help: 'JSON-RPC port (HTTP and WebSocket); 0 picks a free one', commands: ['start'], placeholder: 'N' },
  'chain-id': { kind: 'bigint', default: 31337n, help: 'dev chain: chain id', commands: ['start', 'init'], placeholder: 'N' },
  'gas-limit': { kind: 'bigint', default: 30_000_000n, help: 'dev chain: block gas limit', commands: ['start', 'init'], placeholder: 'GAS' },
  'base-fee': { kind: 'bigint', default: 1_000_000_000n, help: 'dev chain: initial base fee per gas (wei)', commands: ['start', 'init'], placeholder: 'WEI' },
  accounts: { kind: 'integer', default: 10, help: 'dev chain: funded accounts of the test mnemonic', commands: ['start', 'init'], placeholder: 'N' },
  balance: { kind: 'bigint', default: 10_000n, help: 'dev chain: ether per funded account', commands: ['start', 'init'], placeholder: 'ETH' },
  'op-stack': {
    kind: 'boolean',
    default: false,
    help: "a new data directory gets a Base-like OP Stack dev chain instead: the dev accounts, Base's EIP-1559 parameters (elasticity 6, denominator 250 from Canyon), OP forks Bedrock to Jovian from genesis, the L1Block, GasPriceOracle, L2ToL1MessagePasser and fee vault predeploys and the create2Deployer preinstall; the sequencer opens every block with the L1-attributes deposit (a fake L1 advancing every 12 s), the SequencerFeeVault as coinbase, and flashnode_sendDeposit queues user deposits (an existing OP data directory does all this without the flag)",
    commands: ['start', 'init'],
  },
  'op-l1': {
    kind: 'string',
    help: 'with --op-stack, or a --genesis with an optimism section: JSON file of the L1 values every L1-attributes deposit sets (l1BaseFee, l1BlobBaseFee, baseFeeScalar, blobBaseFeeScalar, operatorFeeScalar, operatorFeeConstant, daFootprintGasScalar) and Jovian\'s minBaseFee (extraData); default: Base mainnet\'s of August 2024, no operator fee, DA footprint scalar 400, minimum base fee 0',
    commands: ['start', 'init'],
    placeholder: 'FILE',
  },
  'rpc-gas-cap': { kind: 'bigint', default: 50_000_000n, help: 'default and maximum gas of eth_call / eth_estimateGas', commands: ['start'], placeholder: 'GAS' },
  'evm-timeout': { kind: 'integer', default: 5_000, help: 'time limit of one eth_call, estimate or trace execution (ms); a trace\'s own timeout may only lower it', commands: ['start'], placeholder: 'MS' },
  'execution-workers': {
    kind: 'integer',
    default: -1,
    help: 'threads running eth_call/estimateGas/eth_simulateV1 off the main thread; 0 = on it; -1 = one per core beyond the first, and one more for simulations and long calls, taking other jobs too while long executions leave the main thread idle',
    commands: ['start'],
    placeholder: 'N',
  },
  'recovery-workers': {
    kind: 'integer',
    default: -1,
    help: "threads recovering senders off the main thread (signature work): a sequencer's of eth_sendRawTransaction, a follower's of the stream's transactions (checked at each seal), started with the first one; 0 = on it; -1 = when there is a core beyond the first, 2 on a sequencer (on 2 cores, 2 accepted ~7% more than 1 or 3) and 1 on a follower, else 0",
    commands: ['start'],
    placeholder: 'N',
  },
  'seal-workers': {
    kind: 'integer',
    default: -1,
    help: "threads hashing each sealed block's transactions and receipts roots (0 or 1), a sequencer's or a follower's check of them, started with the first block of 128 or more transactions; 0 = on the main thread, between requests; -1 = 1 when there is a core beyond the first",
    commands: ['start'],
    placeholder: 'N',
  },
  'call-cache': {
    kind: 'integer',
    default: 10_000,
    help: 'eth_call results remembered per sealed block or pre-confirmed snapshot (they never change); 0 = none',
    commands: ['start'],
    placeholder: 'N',
  },
  'revert-code': {
    kind: 'integer',
    default: -32000,
    help: 'JSON-RPC error code of an eth_call / eth_estimateGas revert (-32000 per the service contract, message exactly "execution reverted"; 3 is geth\'s code with geth\'s "execution reverted: <reason>")',
    commands: ['start'],
    placeholder: 'CODE',
  },
  'allowed-hosts': {
    kind: 'string',
    default: 'localhost',
    help: 'comma-separated Host header values accepted besides IP literals (* = any)',
    commands: ['start'],
    placeholder: 'LIST',
  },
  cors: { kind: 'string', help: 'comma-separated CORS origins (off unless set; * = any)', commands: ['start'], placeholder: 'LIST' },
  profile: {
    kind: 'string',
    default: 'dedicated',
    help: 'endpoint profile: dedicated = every method; public = eth_getBlockReceipts answers 403, no development methods, rate limit',
    commands: ['start'],
    placeholder: 'dedicated|public',
  },
  'rate-limit': {
    kind: 'integer',
    help: 'requests per second per client IP, bursts of 10 s worth, over it HTTP 429 (default: 100 on public, none on dedicated; 0 = none)',
    commands: ['start'],
    placeholder: 'N',
  },
  'idle-timeout': {
    kind: 'integer',
    default: 120_000,
    help: 'keep-alive: an idle HTTP connection stays open this long (ms; advertised as Keep-Alive: timeout, closed 1 s later; never with a request on its way in)',
    commands: ['start'],
    placeholder: 'MS',
  },
  config: {
    kind: 'string',
    help: 'JSON file of the endpoints to serve, each with its own port, profile and limits (see "Config file" below)',
    commands: ['start'],
    placeholder: 'FILE',
  },
  'log-level': {
    kind: 'string',
    default: 'info',
    help: 'least severe log entries written (standard error): debug (every flashblock), info (every sealed block; import: its progress), warn, error',
    commands: ['start', 'import'],
    placeholder: 'debug|info|warn|error',
  },
  'log-format': {
    kind: 'string',
    default: 'auto',
    help: 'json: one JSON object per line; pretty: readable lines; auto: pretty on a terminal, json otherwise (import shows a progress bar on a terminal, log lines otherwise)',
    commands: ['start', 'import'],
    placeholder: 'json|pretty|auto',
  },
  sealing: {
    kind: 'string',
    default: 'auto',
    help: 'auto: a flashblock every interval, a block every N; manual: only when asked (evm_mine)',
    commands: ['start'],
    placeholder: 'auto|manual',
  },
  'flashblock-interval': { kind: 'integer', default: 200, help: 'time between flashblocks (ms)', commands: ['start'], placeholder: 'MS' },
  'flashblocks-per-block': { kind: 'integer', default: 10, help: 'flashblocks per sealed block', commands: ['start'], placeholder: 'N' },
  coinbase: { kind: 'string', default: '0x0000000000000000000000000000000000000000', help: 'fee recipient of the blocks this node seals', commands: ['start'], placeholder: 'ADDR' },
  'flashblocks-port': {
    kind: 'integer',
    help: 'also serve the flashblock stream (always at /flashblocks on the JSON-RPC port; docs/stream.md) alone on this port, at ws://HOST:N/flashblocks',
    commands: ['start'],
    placeholder: 'N',
  },
  'metrics-port': {
    kind: 'integer',
    help: 'also serve the Prometheus metrics (GET /metrics on the JSON-RPC port but on public endpoints; docs/operations.md) alone on this port, at http://HOST:N/metrics',
    commands: ['start'],
    placeholder: 'N',
  },
  'ready-max-age': {
    kind: 'integer',
    help: 'GET /readyz answers 503 when the newest flashblock is older than this (ms; default five flashblock intervals, at least 1000); GET /healthz is 200 while the process serves',
    commands: ['start'],
    placeholder: 'MS',
  },
  'ready-max-behind': {
    kind: 'integer',
    default: 2,
    help: 'with --follow: GET /readyz answers 503 while the follower lacks more than this many of the sequencer\'s sealed blocks',
    commands: ['start'],
    placeholder: 'N',
  },
  'flashblocks-history': {
    kind: 'integer',
    default: 10,
    help: 'sealed blocks whose flashblock messages are kept for subscribers resuming with ?after=SEQUENCE (besides the open block)',
    commands: ['start'],
    placeholder: 'N',
  },
  'sync-timeout': { kind: 'integer', default: 2_000, help: 'default and maximum wait of eth_sendRawTransactionSync (ms)', commands: ['start'], placeholder: 'MS' },
  'no-preconfirmations': {
    kind: 'boolean',
    default: false,
    help: 'the endpoint serves sealed state only: pending reads latest, receipts and logs once sealed, no eth_simulateV1, no flashblock subscriptions (the node still sequences; per endpoint in a config file: "preconfirmations": false)',
    commands: ['start'],
  },
  'new-heads': {
    kind: 'string',
    help: 'when eth_subscribe("newHeads") announces a head: flashblock (default with pre-confirmations, as Base\'s pre-confirmation endpoints) = the pending block\'s header at every flashblock and each sealed header; block (as geth; the only choice with --no-preconfirmations) = each sealed header (per endpoint in a config file: "newHeads")',
    commands: ['start'],
    placeholder: 'flashblock|block',
  },
  'no-metrics': {
    kind: 'boolean',
    default: false,
    help: 'record no Prometheus metrics (GET /metrics on every endpoint but public ones; docs/operations.md)',
    commands: ['start'],
  },
  'no-ui': {
    kind: 'boolean',
    default: false,
    help: 'do not serve the live view (GET / from a browser: the open block, sealed blocks, pool and pre-confirmation latency as they happen) nor GET /status; without it both are served on every endpoint but public ones (docs/operations.md)',
    commands: ['start'],
  },
  follow: {
    kind: 'string',
    help: "follow the sequencer at this JSON-RPC URL instead of sequencing: no pool; its flashblock stream applied without re-executing, blocks checked at each seal, missing blocks fetched; transactions forwarded to it. Same genesis as the sequencer's. --ready-max-age is then the age past which pending answers latest",
    commands: ['start'],
    placeholder: 'URL',
  },
  stream: {
    kind: 'string',
    help: "NATS JetStream fan-out (docs/scaling.md): a sequencer also publishes every flashblock stream message into the broker's stream FLASHNODE_<chain id> (never waiting for it: a message it cannot take is dropped from that path and counted); a follower (with --follow) reads its messages from there, and the ones the broker lacks from the sequencer",
    commands: ['start'],
    placeholder: 'nats://HOST:PORT',
  },
  'sequencer-group': {
    kind: 'string',
    help: 'be one candidate of a sequencer group of this name (docs/scaling.md): with --stream listing a JetStream cluster\'s servers, one candidate holds the group\'s lease and sequences, publishing every flashblock to the replicated stream before announcing it; the others follow it and take over when its lease lapses. GET /leader answers 200 on the leader, 503 elsewhere',
    commands: ['start'],
    placeholder: 'NAME',
  },
  'node-id': {
    kind: 'string',
    help: 'this candidate\'s id in its sequencer group, unique in the group (default: HOST:PORT of its first endpoint)',
    commands: ['start'],
    placeholder: 'ID',
  },
  'advertise-url': {
    kind: 'string',
    help: 'the JSON-RPC URL the other members of a sequencer group reach this one at, while it leads: forwarded transactions, catch-up (default: http://HOST:PORT of its first endpoint; required when that host is 0.0.0.0 or ::)',
    commands: ['start'],
    placeholder: 'URL',
  },
  'group-replicas': {
    kind: 'integer',
    default: 3,
    help: 'replicas of a sequencer group\'s lease and stream when a member creates them (3 on a three-server cluster; 1 on a single server, for trying a group without a cluster: nothing is then replicated)',
    commands: ['start'],
    placeholder: 'N',
  },
  'read-only': { kind: 'boolean', default: false, help: 'serve reads only: no pool, no sequencing; pending reads the latest block', commands: ['start'] },
  debug: { kind: 'boolean', default: false, help: 'show internal error details in responses', commands: ['start'] },
} as const satisfies Record<string, OptionSpec>

export type OptionName = keyof typeof OPTIONS

type ValueOf<S extends { kind: Kind }> = S['kind'] extends 'integer'
  ? number
  : S['kind'] extends 'bigint'
    ? bigint
    : S['kind'] extends 'boolean'
      ? boolean
      : string

export type ParsedOptions = {
  [K in OptionName]: (typeof OPTIONS)[K] extends { default: unknown } ? ValueOf<(typeof OPTIONS)[K]> : ValueOf<(typeof OPTIONS)[K]> | undefined
}

export class UsageError extends Error {}

function convert(name: string, spec: OptionSpec, raw: string | boolean): string | number | bigint | boolean {
  if (spec.kind === 'boolean') return raw === true
  const text = String(raw)
  if (spec.kind === 'string') return text
  if (!/^-?\d+$/.test(text)) throw new UsageError(`--${name} needs a whole number, got "${text}"`)
  if (spec.kind === 'bigint') return BigInt(text)
  const n = Number(text)
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${name} is out of range: ${text}`)
  return n
}

export function parseCommandLine(
  command: Command,
  args: string[],
): { options: ParsedOptions; positionals: string[]; help: boolean; given: ReadonlySet<OptionName> } {
  const config: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } }
  for (const [name, spec] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
    if (spec.commands.includes(command)) config[name] = { type: spec.kind === 'boolean' ? 'boolean' : 'string' }
  }
  let parsed
  try {
    parsed = parseArgs({ args, options: config, allowPositionals: true, strict: true })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const options: Record<string, unknown> = {}
  const given = new Set<OptionName>()
  for (const [name, spec] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
    const raw = (parsed.values as Record<string, string | boolean | undefined>)[name]
    if (raw !== undefined) given.add(name as OptionName)
    options[name] = raw === undefined ? spec.default : convert(name, spec, raw)
  }
  return { options: options as ParsedOptions, positionals: parsed.positionals, help: parsed.values.help === true, given }
}

const USAGE: Record<Command, string> = {
  start: 'flashnode start [options]      run the node and its JSON-RPC server',
  init: 'flashnode init [options]       create the chain in the data directory and exit',
  import: 'flashnode import FILE... [options]  execute and append RLP-encoded blocks (e.g. chain.rlp)',
}

function optionLines(command: Command | undefined): string[] {
  const lines: string[] = []
  for (const [name, spec] of Object.entries(OPTIONS) as [string, OptionSpec][]) {
    if (command !== undefined && !spec.commands.includes(command)) continue
    const flag = `--${name}${spec.placeholder ? ` ${spec.placeholder}` : ''}`
    const def = spec.default === undefined || spec.kind === 'boolean' ? '' : ` (default: ${String(spec.default)})`
    const which = command === undefined && spec.commands.length < ALL.length ? ` [${spec.commands.join(', ')}]` : ''
    lines.push(`  ${flag.padEnd(26)} ${spec.help}${def}${which}`)
  }
  lines.push(`  ${'--help'.padEnd(26)} show this help`)
  return lines
}

/** `sections`: further help paragraphs (e.g. the config file's format), printed after the options. */
export function helpText(command?: Command, sections: readonly (readonly string[])[] = []): string {
  const head = command === undefined ? Object.values(USAGE).map((u) => `  ${u}`) : [`  ${USAGE[command]}`]
  return [
    'Flashnode: an Ethereum JSON-RPC node whose reads can see pre-confirmed state.',
    '',
    'Usage:',
    ...head,
    '',
    'Options:',
    ...optionLines(command),
    '',
    'Without --genesis, a new data directory gets the dev chain: Prague rules from block 0 and the first',
    '--accounts accounts of the test mnemonic funded with --balance ether each. An existing data directory',
    'always resumes its own chain.',
    '',
    ...sections.flatMap((lines) => [...lines, '']),
  ].join('\n')
}

export const etherToWei = (ether: bigint): bigint => ether * ETHER
