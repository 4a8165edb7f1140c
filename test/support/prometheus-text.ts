/**
 * A reader of Prometheus's text exposition format (version 0.0.4) for tests: metric families with their TYPE
 * and HELP, each sample with its full name, its labels (escapes undone) and its value. Written here because
 * the one npm parser of the format merges the series of a labelled histogram into one. It is strict: a line
 * it cannot read throws, so a malformed exposition fails the test that scrapes it.
 */

export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Family {
  readonly name: string
  type: string
  help: string
  readonly samples: Sample[]
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/
const HISTOGRAM_SUFFIXES = ['_bucket', '_sum', '_count'] as const

export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>()
  const familyOf = (name: string): Family => {
    let f = families.get(name)
    if (f === undefined) families.set(name, (f = { name, type: 'untyped', help: '', samples: [] }))
    return f
  }
  for (const [n, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue
    const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) ?(.*)$/.exec(line)
    if (meta !== null) {
      const f = familyOf(meta[2]!)
      if (meta[1] === 'TYPE') f.type = meta[3]!
      else f.help = meta[3]!.replace(/\\n/g, '\n').replace(/\\\\/g, '\\')
      continue
    }
    if (line.startsWith('#')) continue
    const sample = parseSample(line, n + 1)
    const base = HISTOGRAM_SUFFIXES.find((s) => sample.name.endsWith(s) && families.get(sample.name.slice(0, -s.length))?.type.match(/^(histogram|summary)$/))
    familyOf(base === undefined ? sample.name : sample.name.slice(0, -base.length)).samples.push(sample)
  }
  return families
}

function parseSample(line: string, lineNumber: number): Sample {
  const fail = (why: string): never => {
    throw new Error(`exposition line ${lineNumber}: ${why}: ${line}`)
  }
  const name = NAME.exec(line)?.[0] ?? fail('no metric name')
  let rest = line.slice(name.length)
  const labels: Record<string, string> = {}
  if (rest.startsWith('{')) {
    rest = rest.slice(1)
    while (!rest.startsWith('}')) {
      const label = LABEL_NAME.exec(rest)?.[0] ?? fail('bad label name')
      rest = rest.slice(label.length)
      if (!rest.startsWith('="')) fail('label without ="')
      rest = rest.slice(2)
      let value = ''
      for (;;) {
        const c = rest[0] ?? fail('unterminated label value')
        rest = rest.slice(1)
        if (c === '"') break
        if (c === '\\') {
          const e = rest[0] ?? fail('dangling escape')
          rest = rest.slice(1)
          value += e === 'n' ? '\n' : e === '\\' || e === '"' ? e : fail(`unknown escape \\${e}`)
        } else value += c
      }
      if (label in labels) fail(`label ${label} twice`)
      labels[label] = value
      if (rest.startsWith(',')) rest = rest.slice(1)
      else if (!rest.startsWith('}')) fail('expected , or }')
    }
    rest = rest.slice(1)
  }
  const parts = rest.trim().split(/\s+/)
  if (parts.length < 1 || parts.length > 2 || parts[0] === '') fail('expected a value and an optional timestamp')
  // Prometheus reads values with Go's ParseFloat: Inf and NaN in any case (prom-client writes "Nan").
  const text = parts[0]!
  const special = text.toLowerCase()
  const value = /^[+-]?inf(inity)?$/.test(special) ? (special.startsWith('-') ? -Infinity : Infinity) : special === 'nan' ? NaN : Number(text)
  if (Number.isNaN(value) && special !== 'nan') fail(`bad value ${text}`)
  return { name, labels, value }
}

/** The samples of `family` named `name` (default: the family's own) whose labels include `labels`. */
export function samplesOf(family: Family, labels: Record<string, string> = {}, name = family.name): Sample[] {
  return family.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
}
