/**
 * The `flashnode` command: start | init | import, with --help generated from the option table.
 *
 * `start` opens (or creates) the chain in --datadir, serves JSON-RPC until SIGINT/SIGTERM, then closes the
 * server and the database cleanly. Usage errors exit 2, runtime failures exit 1.
 */

import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { startProgress, type Progress } from './progress.ts'
import { rememberedDevAccounts } from './dev-accounts-file.ts'
import { bytesToHex, hexToBytes } from '../primitives/hex.ts'
import type { DevAccount } from '../node/dev-genesis.ts'
import { helpText, parseCommandLine, UsageError, type Command, type ParsedOptions } from './options.ts'
import { groupSettings, nodeConfigOf, openNode, sequencerSettingsOf } from './node-config.ts'
import { startGroupMember } from './group-member.ts'
import type { EndpointConfig } from './endpoint-config.ts'
import type { Logger } from '../primitives/logger.ts'
import { makeLogger } from './logging.ts'
import { errorFields } from '../primitives/logger.ts'
import { serveEndpoints, splitList } from './serve.ts'
import { startFlashblocksServer, type RunningStreamServer } from '../rpc/transport/flashblocks-ws.ts'
import { startMetricsServer, type RunningMetricsServer } from '../rpc/transport/metrics-server.ts'
import { configFileHelp, endpointsFromOptions } from './endpoint-config.ts'
import type { FlashNode } from '../node/create-node.ts'

const COMMANDS: readonly Command[] = ['start', 'init', 'import']
/** At most this many test accounts are listed (the dev chain funds 10). */
const DEV_ACCOUNTS_LISTED = 20

/** The test mnemonic's first accounts that genesis funded, as Anvil and Hardhat list them (derived once,
 * by init or the first start, then remembered in the data directory). */
async function fundedDevAccounts(node: FlashNode, datadir: string): Promise<DevAccount[]> {
  const genesisBlock = { kind: 'number', number: 0n } as const
  const funded = async (address: string) => (await node.api.getBalance(hexToBytes(address), genesisBlock)) > 0n
  const accounts: DevAccount[] = []
  for (const account of rememberedDevAccounts(datadir, DEV_ACCOUNTS_LISTED)) {
    if (!(await funded(account.address))) break
    accounts.push(account)
  }
  return accounts
}

async function printDevAccounts(node: FlashNode, datadir: string): Promise<void> {
  const accounts = await fundedDevAccounts(node, datadir)
  if (accounts.length === 0) return
  console.log('\nTest accounts (mnemonic "test test test test test test test test test test test junk"; its keys are public: never use them on a real network):')
  accounts.forEach((a, i) => console.log(`  (${i}) ${a.address}  private key ${a.privateKey}`))
  console.log('')
}

async function start(args: string[]): Promise<void> {
  const { options, given } = parseCommandLine('start', args)
  const endpoints = endpointsFromOptions(options, given) // checked before the data directory is touched
  const log = await makeLogger(options['log-level'], options['log-format'])
  if (options['sequencer-group'] !== undefined) return startInGroup(options, endpoints, log)
  const { node, created } = await openNode(options, 'start', log)
  // A failed tick leaves the open block neither journaled nor consistent: stop, and let a restart resume it
  // from the journal (every published flashblock is there) rather than build on it.
  node.sequencer?.on('error', (err) => {
    log.error(errorFields(err), 'sequencer failed: stopping (a restart resumes the open block from its journal)')
    process.exit(70)
  })
  // A follower's catch-up: a bar on a terminal (standard error), log lines otherwise.
  let catchUp: Progress | undefined
  node.follower?.observe({
    catchUpProgress(done, total) {
      catchUp ??= startProgress({ job: 'catch up with the sequencer', total, unit: 'blocks', terminal: process.stderr, log })
      catchUp.update(done)
      if (done < total) return
      catchUp.finish(done)
      catchUp = undefined
    },
  })
  await node.start()
  let servers
  try {
    servers = await serveEndpoints(node, endpoints, {
      revertCode: options['revert-code'],
      debug: options.debug,
      log: (message, err) => log.error(errorFields(err), message),
    })
  } catch (e) {
    await node.close()
    throw e
  }
  let streamServer: RunningStreamServer | undefined
  const streamPort = options['flashblocks-port']
  if (streamPort !== undefined && node.stream !== undefined) {
    try {
      streamServer = await startFlashblocksServer(node.stream, { host: options.host, port: streamPort, allowedHosts: splitList(options['allowed-hosts']) ?? ['localhost'] })
    } catch (e) {
      await Promise.all(servers.map((server) => server.close()))
      await node.close()
      throw e
    }
  }
  let metricsServer: RunningMetricsServer | undefined
  const metricsPort = options['metrics-port']
  if (metricsPort !== undefined && node.metrics !== undefined) {
    const metrics = node.metrics
    try {
      metricsServer = await startMetricsServer(() => metrics.exposition(), { host: options.host, port: metricsPort, allowedHosts: splitList(options['allowed-hosts']) ?? ['localhost'] })
    } catch (e) {
      await Promise.all([...servers.map((server) => server.close()), streamServer?.close(), metricsServer?.close()])
      await node.close()
      throw e
    }
  }
  const head = await node.api.getBlock({ kind: 'tag', tag: 'latest' })
  console.log(`Flashnode ${created ? 'created' : 'resumed'} chain ${node.api.chainId} in ${options.datadir} at block ${head?.header.number} (${bytesToHex(head!.header.hash)})`)
  await printDevAccounts(node, options.datadir)
  if (node.follower !== undefined) {
    const via = options.stream !== undefined ? ` through JetStream at ${withoutCredentials(options.stream)}` : ''
    console.log(`Following ${withoutCredentials(options.follow ?? '')}${via}: pending is its pre-confirmed state; transactions sent here go to it.`)
  } else if (node.sequencer === undefined) console.log('Read-only: no pool, no sequencing; pending reads the latest block.')
  else if (options.sealing === 'manual') console.log('Sealing: manual (evm_mine seals; flashnode_flashblock pre-confirms).')
  else console.log(`Sealing: a flashblock every ${options['flashblock-interval']} ms, a block every ${options['flashblocks-per-block']} flashblocks.`)
  for (const server of servers) {
    const sealedOnly = node.sequencer !== undefined && !server.preconfirmations ? ', without pre-confirmations' : ''
    const label = servers.length === 1 && server.profile === 'dedicated' && sealedOnly === '' ? '' : ` (endpoint ${server.name}, profile ${server.profile}${sealedOnly})`
    console.log(`flashnode listening on ${server.url}${label}`)
  }
  if (streamServer !== undefined) console.log(`flashblock stream alone on ${streamServer.url}`)
  if (metricsServer !== undefined) console.log(`metrics alone on ${metricsServer.url}`)
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: shutting down`)
    await Promise.all([...servers.map((server) => server.close()), streamServer?.close(), metricsServer?.close()])
    await node.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

/** A sequencer group's candidate (group-member.ts): standing by or leading, until SIGINT/SIGTERM. */
async function startInGroup(options: ParsedOptions, endpoints: EndpointConfig[], log: Logger): Promise<void> {
  const settings = groupSettings(options, endpoints)
  const member = await startGroupMember(settings, nodeConfigOf(options, 'start', log, false), sequencerSettingsOf(options), endpoints, {
    revertCode: options['revert-code'],
    debug: options.debug,
    log: (message, err) => log.error(errorFields(err), message),
  }, log)
  console.log(`Flashnode: candidate ${settings.id} of sequencer group ${settings.group} on ${withoutCredentials(settings.stream)}; GET /leader says whether it leads.`)
  for (const server of member.endpoints()) console.log(`flashnode listening on ${server.url}`)
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`\n${signal}: shutting down`)
    await member.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

async function init(args: string[]): Promise<void> {
  const { options } = parseCommandLine('init', args)
  const { node, created } = await openNode(options, 'init')
  const genesis = await node.api.getBlock({ kind: 'number', number: 0n })
  console.log(`${created ? 'Created' : 'Already initialised:'} chain ${node.api.chainId} in ${options.datadir}, genesis ${bytesToHex(genesis!.header.hash)}`)
  await fundedDevAccounts(node, options.datadir) // remembered now, so that the first start does not derive them
  await node.close()
}

async function importBlocks(args: string[]): Promise<void> {
  const { options, positionals } = parseCommandLine('import', args)
  if (positionals.length === 0) throw new UsageError('import needs at least one file of RLP-encoded blocks')
  // Progress: a bar on a terminal (standard error), log lines otherwise.
  const log = await makeLogger(options['log-level'], options['log-format'])
  const { node } = await openNode(options, 'import')
  try {
    for (const file of positionals) {
      const started = performance.now()
      const bytes = new Uint8Array(readFileSync(file))
      let progress: Progress | undefined
      const result = await node.writer.importRlp(bytes, (p) => {
        progress ??= startProgress({ job: `import ${basename(file)}`, total: p.total, unit: 'blocks', terminal: process.stderr, log })
        progress.update(p.imported + p.skipped)
      })
      progress?.finish()
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      console.log(`${file}: imported ${result.imported}, skipped ${result.skipped} known, head ${result.head} (${seconds} s)`)
    }
  } finally {
    await node.close()
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(helpText(undefined, [configFileHelp()]))
    return
  }
  if (command === '--version') {
    console.log('flashnode 0.1.0')
    return
  }
  if (!COMMANDS.includes(command as Command)) throw new UsageError(`unknown command "${command}" (try --help)`)
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(helpText(command as Command, command === 'start' ? [configFileHelp()] : []))
    return
  }
  if (command === 'start') return start(rest)
  if (command === 'init') return init(rest)
  return importBlocks(rest)
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) {
    console.error(`flashnode: ${e.message}`)
    process.exit(2)
  }
  console.error(`flashnode: ${e instanceof Error ? e.message : String(e)}`)
  process.exit(1)
})

/** A URL as printed: without a user name or password it may carry. */
function withoutCredentials(raw: string): string {
  try {
    const url = new URL(raw)
    url.username = ''
    url.password = ''
    return url.toString().replace(/\/$/, '')
  } catch {
    return raw
  }
}
