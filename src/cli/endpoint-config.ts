/**
 * The endpoints config file (`flashnode start --config FILE`): one node, several JSON-RPC endpoints, each
 * with its own address, profile, rate limit, Host and CORS rules and transport limits.
 *
 *   { "endpoints": [
 *       { "name": "public", "host": "0.0.0.0", "port": 8545, "profile": "public",
 *         "rateLimit": { "requestsPerSecond": 50 }, "allowedHosts": ["rpc.example.com"],
 *         "limits": { "maxConnections": 5000, "maxBatchItems": 100 } },
 *       { "name": "dedicated", "port": 8546 } ] }
 *
 * ONE field table (`FIELDS`) drives both validation and the `--help` text, so the help cannot describe a
 * field the parser does not take. Validation is strict: an unknown or misspelt field is an error, and every
 * error names the file and the field (`endpoints[1].limits.maxBatchItems: …`). Names must be unique, and
 * so must host:port (port 0 aside). Nothing here opens a socket.
 */

import { readFileSync } from 'node:fs'
import { DEFAULT_LIMITS, type TransportLimits } from '../rpc/transport/limits.ts'
import { DEFAULT_ALLOWED_HOSTS } from '../rpc/transport/host-check.ts'
import { DEFAULT_PROFILE, PROFILE_NAMES, PROFILES, isProfileName, type ProfileName } from '../rpc/policy/profiles.ts'
import { defaultBurst, type RateLimit } from '../rpc/policy/rate-limiter.ts'
import { HEADS_CADENCES, type HeadsCadence } from '../rpc/subscriptions.ts'
import { UsageError, type OptionName, type ParsedOptions } from './options.ts'

export interface EndpointConfig {
  readonly name: string
  readonly host: string
  readonly port: number
  readonly profile: ProfileName
  /** Absent: the profile's default; `false`: none. */
  readonly rateLimit?: RateLimit | false
  readonly allowedHosts: readonly string[]
  /** CORS origins; absent: CORS off. */
  readonly cors?: readonly string[]
  readonly limits: Partial<TransportLimits>
  readonly websocket: boolean
  /** False: the endpoint serves sealed state only (pending reads latest, no pre-confirmed receipts...). */
  readonly preconfirmations: boolean
  /** When newHeads announces a head; absent: at every flashblock where pre-confirmations are on. */
  readonly newHeads?: HeadsCadence
  /** The live view (GET / from a browser) and GET /status. */
  readonly ui: boolean
}

type Fields = { -readonly [K in keyof EndpointConfig]?: EndpointConfig[K] }

interface Field {
  readonly name: keyof EndpointConfig
  readonly shape: string
  readonly help: string
  readonly required?: boolean
  /** Parses the raw value into `out`; `at` is the field's path for errors. */
  parse(raw: unknown, at: string, out: Fields): void
}

const fail = (at: string, why: string, raw: unknown): never => {
  throw new ConfigFieldError(`${at}: ${why}, got ${JSON.stringify(raw) ?? String(raw)}`)
}

class ConfigFieldError extends Error {}

const isHeadsCadence = (raw: unknown): raw is HeadsCadence => HEADS_CADENCES.includes(raw as HeadsCadence)

/** A head at every flashblock needs flashblocks: refused on an endpoint that serves sealed state only. */
function checkedHeads(heads: HeadsCadence, preconfirmations: boolean, at: string): HeadsCadence {
  if (heads === 'flashblock' && !preconfirmations) {
    throw new ConfigFieldError(`${at}: "flashblock" needs pre-confirmations, and this endpoint serves sealed state only`)
  }
  return heads
}

/** The keys of EndpointConfig whose value is a boolean. */
type BooleanKey = { [K in keyof EndpointConfig]-?: NonNullable<EndpointConfig[K]> extends boolean ? K : never }[keyof EndpointConfig]

/** A field that takes true or false. */
function booleanField(name: BooleanKey, help: string): Field {
  return {
    name,
    shape: 'boolean',
    help,
    parse(raw, at, out) {
      if (typeof raw !== 'boolean') fail(at, 'must be true or false', raw)
      out[name] = raw as boolean
    },
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function stringList(raw: unknown, at: string): string[] {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string' || v.trim() === '')) {
    return fail(at, 'must be a list of non-empty strings', raw)
  }
  return raw.map((v: string) => v.trim())
}

function positiveInteger(raw: unknown, at: string): number {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw <= 0) return fail(at, 'must be a whole number above 0', raw)
  return raw
}

function strictKeys(raw: Record<string, unknown>, allowed: readonly string[], at: string): void {
  for (const key of Object.keys(raw)) {
    if (!allowed.includes(key)) throw new ConfigFieldError(`${at}.${key}: unknown field (allowed: ${allowed.join(', ')})`)
  }
}

export function parseRateLimit(raw: unknown, at: string): RateLimit | false {
  if (raw === false) return false
  if (!isObject(raw)) return fail(at, 'must be false or {"requestsPerSecond": N, "burst"?: N}', raw)
  strictKeys(raw, ['requestsPerSecond', 'burst'], at)
  const rps = raw.requestsPerSecond
  if (typeof rps !== 'number' || !Number.isFinite(rps) || rps <= 0) {
    return fail(`${at}.requestsPerSecond`, 'must be a number above 0', rps)
  }
  const burst = raw.burst === undefined ? defaultBurst(rps) : positiveInteger(raw.burst, `${at}.burst`)
  return { requestsPerSecond: rps, burst }
}

const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as (keyof TransportLimits)[]

export const FIELDS: readonly Field[] = [
  {
    name: 'name',
    shape: 'string',
    required: true,
    help: 'unique name, shown in logs',
    parse(raw, at, out) {
      if (typeof raw !== 'string' || raw.trim() === '') fail(at, 'must be a non-empty string', raw)
      out.name = (raw as string).trim()
    },
  },
  {
    name: 'host',
    shape: 'string',
    help: 'address to listen on (default 127.0.0.1)',
    parse(raw, at, out) {
      if (typeof raw !== 'string' || raw.trim() === '') fail(at, 'must be a non-empty string', raw)
      out.host = (raw as string).trim()
    },
  },
  {
    name: 'port',
    shape: 'number',
    required: true,
    help: 'port for HTTP and WebSocket (0 picks a free one)',
    parse(raw, at, out) {
      if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > 65535) fail(at, 'must be a whole number from 0 to 65535', raw)
      out.port = raw as number
    },
  },
  {
    name: 'profile',
    shape: `"${PROFILE_NAMES.join('" | "')}"`,
    help: `${DEFAULT_PROFILE} (default): every method; public: eth_getBlockReceipts answers HTTP 403, no development methods, a rate limit`,
    parse(raw, at, out) {
      if (!isProfileName(raw)) fail(at, `must be one of ${PROFILE_NAMES.join(', ')}`, raw)
      out.profile = raw as ProfileName
    },
  },
  {
    name: 'rateLimit',
    shape: '{requestsPerSecond, burst?} | false',
    help: `per client IP, over it HTTP 429; burst defaults to 10 s worth (public default: ${PROFILES.public.rateLimit!.requestsPerSecond}/s, burst ${PROFILES.public.rateLimit!.burst}; dedicated: none)`,
    parse(raw, at, out) {
      out.rateLimit = parseRateLimit(raw, at)
    },
  },
  {
    name: 'allowedHosts',
    shape: '[string]',
    help: `Host header values accepted besides IP literals, "*" = any (default ${JSON.stringify(DEFAULT_ALLOWED_HOSTS)})`,
    parse(raw, at, out) {
      out.allowedHosts = stringList(raw, at)
    },
  },
  {
    name: 'cors',
    shape: '[string]',
    help: 'browser origins allowed by CORS, "*" = any (default: CORS off)',
    parse(raw, at, out) {
      out.cors = stringList(raw, at)
    },
  },
  {
    name: 'limits',
    shape: '{name: N}',
    help: `any of (name=default): ${LIMIT_NAMES.map((n) => `${n}=${DEFAULT_LIMITS[n]}`).join(', ')}; bytes, counts, ms`,
    parse(raw, at, out) {
      if (!isObject(raw)) fail(at, 'must be an object of limits', raw)
      const obj = raw as Record<string, unknown>
      strictKeys(obj, LIMIT_NAMES, at)
      const limits: Partial<Record<keyof TransportLimits, number>> = {}
      for (const name of LIMIT_NAMES) if (obj[name] !== undefined) limits[name] = positiveInteger(obj[name], `${at}.${name}`)
      out.limits = limits
    },
  },
  booleanField('websocket', 'serve WebSocket on the same port (default true)'),
  booleanField('preconfirmations', 'true (default): pending is the newest flashblock. false: sealed state only, as a node without pre-confirmations: pending reads latest; receipts, logs and block places of transactions appear once sealed; eth_simulateV1 is not served; eth_sendRawTransactionSync answers once sealed; subscriptions announce sealed blocks only (pending nonces still count every transaction sent)'),
  {
    name: 'newHeads',
    shape: `"${HEADS_CADENCES.join('" | "')}"`,
    help: 'when eth_subscribe("newHeads") announces a head. flashblock (default with pre-confirmations, as Base\'s pre-confirmation endpoints): the pending block\'s header at every flashblock, and each sealed block\'s header. block (default and only choice without pre-confirmations, as geth): each sealed block\'s header',
    parse(raw, at, out) {
      if (!isHeadsCadence(raw)) fail(at, `must be one of ${HEADS_CADENCES.join(', ')}`, raw)
      out.newHeads = raw as HeadsCadence
    },
  },
  booleanField('ui', 'serve the live view (GET / from a browser) and GET /status (default: true, false on public endpoints; --no-ui turns it off on every endpoint)'),
]

function parseEndpoint(raw: unknown, at: string): EndpointConfig {
  if (!isObject(raw)) return fail(at, 'must be an object', raw)
  strictKeys(raw, FIELDS.map((f) => f.name), at)
  const out: Fields = {}
  for (const field of FIELDS) {
    const value = raw[field.name]
    if (value === undefined) {
      if (field.required === true) throw new ConfigFieldError(`${at}.${field.name}: required`)
      continue
    }
    field.parse(value, `${at}.${field.name}`, out)
  }
  return {
    name: out.name!,
    host: out.host ?? '127.0.0.1',
    port: out.port!,
    profile: out.profile ?? DEFAULT_PROFILE,
    ...(out.rateLimit !== undefined ? { rateLimit: out.rateLimit } : {}),
    allowedHosts: out.allowedHosts ?? DEFAULT_ALLOWED_HOSTS,
    ...(out.cors !== undefined ? { cors: out.cors } : {}),
    limits: out.limits ?? {},
    websocket: out.websocket ?? true,
    preconfirmations: out.preconfirmations ?? true,
    ...(out.newHeads !== undefined ? { newHeads: checkedHeads(out.newHeads, out.preconfirmations ?? true, `${at}.newHeads`) } : {}),
    ui: out.ui ?? (out.profile ?? DEFAULT_PROFILE) !== 'public',
  }
}

/** Validates a parsed config file; throws a UsageError naming `source` and the bad field. */
export function parseEndpointsConfig(raw: unknown, source: string): EndpointConfig[] {
  try {
    if (!isObject(raw)) return fail('(top level)', 'must be an object {"endpoints": [...]}', raw)
    strictKeys(raw, ['endpoints'], '(top level)')
    const list = raw.endpoints
    if (!Array.isArray(list) || list.length === 0) return fail('endpoints', 'must be a non-empty list', list)
    const endpoints = list.map((item, i) => parseEndpoint(item, `endpoints[${i}]`))
    const names = new Set<string>()
    const addresses = new Set<string>()
    endpoints.forEach((e, i) => {
      if (names.has(e.name)) throw new ConfigFieldError(`endpoints[${i}].name: "${e.name}" is used by an earlier endpoint`)
      names.add(e.name)
      const address = `${e.host}:${e.port}`
      if (e.port !== 0 && addresses.has(address)) {
        throw new ConfigFieldError(`endpoints[${i}].port: ${address} is used by an earlier endpoint`)
      }
      addresses.add(address)
    })
    return endpoints
  } catch (e) {
    if (e instanceof ConfigFieldError) throw new UsageError(`config file ${source}: ${e.message}`)
    throw e
  }
}

export function readEndpointsConfig(file: string): EndpointConfig[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new UsageError(`cannot read config file ${file}: ${(e as Error).message}`)
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    throw new UsageError(`config file ${file} is not JSON: ${(e as Error).message}`)
  }
  return parseEndpointsConfig(raw, file)
}

const HELP_WIDTH = 118
const HELP_INDENT = 42

function wrap(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  return [...lines, line]
}

/** The `--help` section on the config file, from the field table. */
export function configFileHelp(): string[] {
  return [
    'Config file (--config FILE): JSON {"endpoints": [ENDPOINT, ...]}, one node serving every endpoint.',
    'Each ENDPOINT is an object with these fields (unknown fields are an error):',
    ...FIELDS.flatMap((f) => {
      const head = `  ${f.name}${f.required === true ? '' : '?'}: ${f.shape}`
      const lines = wrap(f.help, HELP_WIDTH - HELP_INDENT).map((line) => `${' '.repeat(HELP_INDENT)}${line}`)
      if (head.length >= HELP_INDENT) return [head, ...lines]
      return [`${head.padEnd(HELP_INDENT)}${lines[0]!.trimStart()}`, ...lines.slice(1)]
    }),
    'Example: {"endpoints": [{"name": "public", "host": "0.0.0.0", "port": 8545, "profile": "public"},',
    '                        {"name": "dedicated", "port": 8546}]}',
    `With --config, the endpoint flags (${ENDPOINT_FLAGS.map((f) => `--${f}`).join(', ')}) are refused.`,
  ]
}

/** Flags that describe the single endpoint; refused together with --config. */
export const ENDPOINT_FLAGS = ['host', 'port', 'allowed-hosts', 'cors', 'profile', 'rate-limit', 'idle-timeout', 'no-preconfirmations', 'new-heads'] as const satisfies readonly OptionName[]

/** The endpoints of `flashnode start`: the config file's, or the one the flags describe. */
export function endpointsFromOptions(options: ParsedOptions, given: ReadonlySet<OptionName>): EndpointConfig[] {
  if (options.config !== undefined) {
    const clash = ENDPOINT_FLAGS.find((flag) => given.has(flag))
    if (clash !== undefined) throw new UsageError(`--${clash} cannot be combined with --config: set it per endpoint in the file`)
    const endpoints = readEndpointsConfig(options.config)
    return options['no-ui'] ? endpoints.map((e) => ({ ...e, ui: false })) : endpoints
  }
  if (!isProfileName(options.profile)) throw new UsageError(`--profile must be one of ${PROFILE_NAMES.join(', ')}, got "${options.profile}"`)
  const rate = options['rate-limit']
  if (rate !== undefined && rate < 0) throw new UsageError(`--rate-limit must be 0 (none) or more, got ${rate}`)
  const idle = options['idle-timeout']
  if (idle < 1) throw new UsageError(`--idle-timeout must be at least 1 ms, got ${idle}`)
  const allowedHosts = splitList(options['allowed-hosts']) ?? []
  const cors = splitList(options.cors)
  const heads = options['new-heads']
  if (heads !== undefined && !isHeadsCadence(heads)) throw new UsageError(`--new-heads must be one of ${HEADS_CADENCES.join(', ')}, got "${heads}"`)
  if (heads === 'flashblock' && options['no-preconfirmations']) throw new UsageError('--new-heads flashblock needs pre-confirmations: it cannot be combined with --no-preconfirmations')
  return [{
    name: 'default',
    host: options.host,
    port: options.port,
    profile: options.profile,
    ...(rate === undefined ? {} : { rateLimit: rate === 0 ? false : { requestsPerSecond: rate, burst: defaultBurst(rate) } }),
    allowedHosts,
    ...(cors !== undefined ? { cors } : {}),
    limits: given.has('idle-timeout') ? { idleTimeoutMs: idle } : {},
    websocket: true,
    preconfirmations: !options['no-preconfirmations'],
    ...(heads !== undefined ? { newHeads: heads } : {}),
    ui: !options['no-ui'] && options.profile !== 'public',
  }]
}

export const splitList = (s: string | undefined): string[] | undefined =>
  s === undefined ? undefined : s.split(',').map((x) => x.trim()).filter((x) => x.length > 0)
